"""The sitemap and the structured data read from the catalogue and the business settings."""

from sqlmodel import select

from storefront import i18n
from storefront.models import BusinessSettings, Service
from storefront.seed import load_demo
from storefront.services.catalog import seo


def test_sitemap_lists_every_public_page_and_each_published_theme(session):
    load_demo(session=session)
    session.commit()
    urls = seo.sitemap_urls(session=session, base="https://e.example")
    assert "https://e.example/" in urls
    assert "https://e.example/services/mascots" in urls
    assert "https://e.example/contact" in urls
    themes = session.exec(select(Service).where(Service.kind == "theme")).all()
    assert themes
    for theme in themes:
        assert f"https://e.example/services/{theme.slug}" in urls
    assert not [u for u in urls if "[" in u or "/admin" in u or "/account" in u]
    # A plain service made in the back office has its page too; a draft has none.
    session.add(Service(title="Photo Booth", slug="photo-booth", description="Fun.", price=90))
    session.add(
        Service(title="Secret", slug="secret-draft", description="Not yet.", status="draft")
    )
    session.commit()
    urls = seo.sitemap_urls(session=session, base="https://e.example")
    assert "https://e.example/services/photo-booth" in urls
    assert "https://e.example/services/secret-draft" not in urls
    # A theme taken out of the catalogue leaves the sitemap.
    themes[0].status = "draft"
    session.add(themes[0])
    session.commit()
    assert f"https://e.example/services/{themes[0].slug}" not in seo.sitemap_urls(session=session)


def test_home_and_contact_describe_the_business_from_its_settings(session):
    load_demo(session=session)
    row = session.get(BusinessSettings, 1) or BusinessSettings()
    row.business_name, row.opening_hours = "Festa Magjike", "Mon-Sat 10:00-19:00"
    session.add(row)
    session.commit()
    for path in ("/", "/contact/"):
        (data,) = seo.structured_data(path, session=session)
        assert data["@type"] == "LocalBusiness"
        assert data["name"] == "Festa Magjike"
        assert data["openingHoursSpecification"][0]["dayOfWeek"][-1] == "Saturday"


def test_category_and_theme_pages_offer_products_in_euros(session):
    load_demo(session=session)
    session.commit()
    (tables,) = seo.structured_data("/services/wedding-tables", session=session)
    assert tables["@type"] == "Product"
    assert tables["name"] == "Tavolina dasme"  # the category's name, in the default edition's
    with i18n.using("en"):
        (english,) = seo.structured_data("/services/wedding-tables", session=session)
    assert english["name"] == "Wedding Tables"
    assert tables["offers"]["priceCurrency"] == "EUR"
    theme = session.exec(select(Service).where(Service.slug == "enchanted-princess")).one()
    for path in (f"/services/{theme.id}", "/themes/enchanted-princess"):
        (data,) = seo.structured_data(path, session=session)
        assert data["name"] == theme.title
        assert data["url"].endswith("/services/enchanted-princess")
        assert data["offers"]["price"] == f"{theme.price:.2f}"
    session.add(Service(title="Photo Booth", slug="photo-booth", description="Fun.", price=90))
    session.commit()
    (booth,) = seo.structured_data("/services/photo-booth/", session=session)
    assert (booth["name"], booth["offers"]["price"]) == ("Photo Booth", "90.00")
    assert seo.structured_data("/terms", session=session) == []
    assert seo.structured_data("/services/no-such-theme", session=session) == []
