"""the demo catalogue's default edition in Albanian (issue 34, 'The default edition is not Albanian')

The seed wrote some of the default edition's texts in English: the categories' names, every
mascot's description, short and full description and 'suitable for' list, the themes'
description, long description, age, duration, capacity, features and add-ons' names, a few
gallery captions, and the business settings' address and opening hours. A row that still holds
the seed's old English text in a default column gets the Albanian text the seed now writes
there (storefront/seed/catalog.py, models.BusinessSettings), and the English moves to
`translations["en"]` where no English was written for it (so /en shows what it showed). A text
an admin changed is left as it is. The texts are written out here: a migration means the same
thing next year, whatever the seed says then.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-30 10:00:00
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Each text as the seed wrote it in English and as it writes it now: slug -> field -> (English,
# Albanian); a service's details by key. BANNER_ITEMS: a banner's (by name) item captions,
# English -> Albanian; BANNERS: a banner's description (the back office's, no English kept).
CATEGORIES = {
    "magic-weddings": {"name": ("Magic Weddings", "Dasma magjike")},
    "mascots": {"name": ("Mascots", "Maskotat")},
    "bouncers": {"name": ("Bouncers", "Bouncerë")},
    "wedding-tables": {"name": ("Wedding Tables", "Tavolina dasme")},
    "themed-decorations": {"name": ("Themed Decorations", "Dekorime tematike")},
}
SERVICES = {
    "mascot-ice-princess": {
        "description": (
            "A graceful princess of snow and ice.",
            "Një princeshë e hijshme e borës dhe akullit.",
        ),
        "details": {
            "short_description": (
                "A graceful princess of snow and ice.",
                "Një princeshë e hijshme e borës dhe akullit.",
            ),
            "full_description": (
                "Our Ice Princess glides into the party in a sparkling blue gown, sings winter songs with the children and poses for photos beside the birthday cake.",
                "Princesha jonë e akullit hyn në festë me një fustan blu që shkëlqen, këndon këngë dimri me fëmijët dhe bën fotografi pranë tortës së ditëlindjes.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Weddings"],
                ["Festa ditëlindjeje", "Festa shkollore", "Dasma"],
            ),
        },
    },
    "mascot-space-ranger": {
        "description": ("A brave hero from outer space.", "Një hero trim nga hapësira."),
        "details": {
            "short_description": ("A brave hero from outer space.", "Një hero trim nga hapësira."),
            "full_description": (
                "The Space Ranger arrives on a mission to make the party fun: countdowns, astronaut salutes and a space-training game that every child can join.",
                "Rojtari i hapësirës vjen me një mision: ta bëjë festën sa më argëtuese, me numërime mbrapsht, përshëndetje astronautësh dhe një lojë stërvitjeje hapësinore ku merr pjesë çdo fëmijë.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-friendly-dinosaur": {
        "description": (
            "A big, gentle dinosaur who loves hugs.",
            "Një dinosaur i madh e i butë që i do përqafimet.",
        ),
        "details": {
            "short_description": (
                "A big, gentle dinosaur who loves hugs.",
                "Një dinosaur i madh e i butë që i do përqafimet.",
            ),
            "full_description": (
                "Our Friendly Dinosaur stomps in with a smile, plays hide-and-seek, dances to party music and gives the gentlest dinosaur hugs in town.",
                "Dinosauri ynë miqësor hyn me hapa të rëndë dhe me buzëqeshje, luan kukafshehtas, kërcen me muzikën e festës dhe jep përqafimet më të buta në qytet.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-pirate-captain": {
        "description": (
            "A jolly captain ready for a treasure hunt.",
            "Një kapiten i gëzuar, gati për gjueti thesari.",
        ),
        "details": {
            "short_description": (
                "A jolly captain ready for a treasure hunt.",
                "Një kapiten i gëzuar, gati për gjueti thesari.",
            ),
            "full_description": (
                "The Pirate Captain leads the children on a treasure hunt around the venue, teaches them a pirate song and awards every little sailor a place in the crew.",
                "Kapiteni i piratëve i çon fëmijët në një gjueti thesari nëpër ambient, u mëson një këngë piratësh dhe i jep çdo marinari të vogël një vend në ekuipazh.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Theme Parties"],
                ["Festa ditëlindjeje", "Festa shkollore", "Festa tematike"],
            ),
        },
    },
    "mascot-sea-princess": {
        "description": (
            "A cheerful princess from under the sea.",
            "Një princeshë e gëzuar nga thellësitë e detit.",
        ),
        "details": {
            "short_description": (
                "A cheerful princess from under the sea.",
                "Një princeshë e gëzuar nga thellësitë e detit.",
            ),
            "full_description": (
                "The Sea Princess brings the magic of the ocean with bubble games, sea-creature stories and a shimmering tail that children love to photograph.",
                "Princesha e detit sjell magjinë e oqeanit me lojëra me flluska, tregime për krijesat e detit dhe një bisht që vezullon, të cilin fëmijët duan ta fotografojnë.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-brave-knight": {
        "description": (
            "A noble knight in shining armour.",
            "Një kalorës fisnik me armaturë që shkëlqen.",
        ),
        "details": {
            "short_description": (
                "A noble knight in shining armour.",
                "Një kalorës fisnik me armaturë që shkëlqen.",
            ),
            "full_description": (
                "Our Brave Knight hosts a knighting ceremony for the birthday child, leads a friendly quest and guards the cake until it is time to sing.",
                "Kalorësi ynë trim e shpall kalorës fëmijën e ditëlindjes në një ceremoni të vërtetë, udhëheq një mision miqësor dhe e ruan tortën derisa të vijë koha për këngën e ditëlindjes.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-flower-fairy": {
        "description": (
            "A tiny fairy who makes flowers bloom.",
            "Një zanë e vogël që i bën lulet të çelin.",
        ),
        "details": {
            "short_description": (
                "A tiny fairy who makes flowers bloom.",
                "Një zanë e vogël që i bën lulet të çelin.",
            ),
            "full_description": (
                "The Flower Fairy sprinkles pretend fairy dust, tells garden stories and helps the children make flower crowns during the party.",
                "Zana e luleve hedh pluhur magjik, tregon përralla nga kopshti dhe i ndihmon fëmijët të thurin kurora me lule gjatë festës.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Garden Parties"],
                ["Festa ditëlindjeje", "Festa shkollore", "Festa në oborr"],
            ),
        },
    },
    "mascot-masked-superhero": {
        "description": (
            "A caped hero who saves the day.",
            "Një hero me pelerinë që e shpëton ditën.",
        ),
        "details": {
            "short_description": (
                "A caped hero who saves the day.",
                "Një hero me pelerinë që e shpëton ditën.",
            ),
            "full_description": (
                "Our Masked Superhero runs a hero-training course with jumps, poses and a secret hero oath, then stays for photos with every young hero.",
                "Superheroi ynë me maskë organizon një stërvitje për heronj me kërcime, poza dhe një betim të fshehtë heroi, pastaj qëndron për fotografi me çdo hero të vogël.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-rainbow-unicorn": {
        "description": (
            "A magical unicorn with a rainbow mane.",
            "Një njëbrirësh magjik me jele ylberi.",
        ),
        "details": {
            "short_description": (
                "A magical unicorn with a rainbow mane.",
                "Një njëbrirësh magjik me jele ylberi.",
            ),
            "full_description": (
                "The Rainbow Unicorn trots in with a colourful mane, plays musical games and brings a little extra magic to every birthday wish.",
                "Njëbrirëshi i ylberit vjen me jelen e tij shumëngjyrëshe, luan lojëra muzikore dhe i shton pak më shumë magji çdo dëshire ditëlindjeje.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-jolly-lion": {
        "description": ("The friendliest king of the jungle.", "Mbreti më miqësor i xhunglës."),
        "details": {
            "short_description": (
                "The friendliest king of the jungle.",
                "Mbreti më miqësor i xhunglës.",
            ),
            "full_description": (
                "Our Jolly Lion roars softly, teaches the children animal dances and leads a jungle parade around the party room.",
                "Luani ynë i gëzuar ulërin butë, u mëson fëmijëve valle kafshësh dhe udhëheq një paradë xhungle nëpër sallën e festës.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-teddy-bear": {
        "description": (
            "A soft and cuddly teddy bear.",
            "Një arush pelushi i butë, për t'u përqafuar.",
        ),
        "details": {
            "short_description": (
                "A soft and cuddly teddy bear.",
                "Një arush pelushi i butë, për t'u përqafuar.",
            ),
            "full_description": (
                "The Teddy Bear is perfect for the youngest guests: slow dances, gentle hugs and plenty of time for photos with the whole family.",
                "Arushi i pelushit është i përkryer për mysafirët më të vegjël: valle të ngadalta, përqafime të buta dhe plot kohë për fotografi me gjithë familjen.",
            ),
            "suitable_for": (
                ["Birthday Parties", "Baby Showers"],
                ["Festa ditëlindjeje", "Festa për ardhjen e bebes"],
            ),
        },
    },
    "mascot-magic-wizard": {
        "description": ("A wise wizard full of surprises.", "Një magjistar i urtë plot surpriza."),
        "details": {
            "short_description": (
                "A wise wizard full of surprises.",
                "Një magjistar i urtë plot surpriza.",
            ),
            "full_description": (
                "Our Magic Wizard performs simple tricks, casts a birthday spell over the cake and lets every child try a wave of the magic wand.",
                "Magjistari ynë bën truke të thjeshta, hedh një magji ditëlindjeje mbi tortë dhe i lë të gjithë fëmijët ta provojnë shkopin magjik.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Theme Parties"],
                ["Festa ditëlindjeje", "Festa shkollore", "Festa tematike"],
            ),
        },
    },
    "mascot-royal-princess": {
        "description": (
            "A kind princess in a golden gown.",
            "Një princeshë zemërmirë me fustan të artë.",
        ),
        "details": {
            "short_description": (
                "A kind princess in a golden gown.",
                "Një princeshë zemërmirë me fustan të artë.",
            ),
            "full_description": (
                "The Royal Princess holds a royal ball for the children, teaches a simple princess dance and crowns the birthday child for the day.",
                "Princesha mbretërore organizon një ballo mbretërore për fëmijët, u mëson një valle të thjeshtë princeshash dhe e kurorëzon fëmijën e ditëlindjes për atë ditë.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Weddings"],
                ["Festa ditëlindjeje", "Festa shkollore", "Dasma"],
            ),
        },
    },
    "mascot-cheerful-clown": {
        "description": (
            "A funny clown who makes everyone laugh.",
            "Një kloun qesharak që i bën të gjithë të qeshin.",
        ),
        "details": {
            "short_description": (
                "A funny clown who makes everyone laugh.",
                "Një kloun qesharak që i bën të gjithë të qeshin.",
            ),
            "full_description": (
                "Our Cheerful Clown brings jokes, silly walks and party games that keep children laughing from the first song to the last slice of cake.",
                "Klouni ynë i gëzuar sjell shaka, ecje qesharake dhe lojëra feste që i mbajnë fëmijët duke qeshur nga kënga e parë deri te feta e fundit e tortës.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-robot-buddy": {
        "description": ("A friendly robot from the future.", "Një robot miqësor nga e ardhmja."),
        "details": {
            "short_description": (
                "A friendly robot from the future.",
                "Një robot miqësor nga e ardhmja.",
            ),
            "full_description": (
                "The Robot Buddy speaks in beeps, dances the robot and challenges the children to a freeze-dance game they will not forget.",
                "Shoku robot flet me bip-bip, kërcen si robot dhe i sfidon fëmijët në një lojë «ngrij në vend» që nuk do ta harrojnë.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Corporate Events"],
                ["Festa ditëlindjeje", "Festa shkollore", "Evente të kompanive"],
            ),
        },
    },
    "mascot-honey-bee": {
        "description": (
            "A busy little bee with a sweet smile.",
            "Një bletë e vogël punëtore me buzëqeshje të ëmbël.",
        ),
        "details": {
            "short_description": (
                "A busy little bee with a sweet smile.",
                "Një bletë e vogël punëtore me buzëqeshje të ëmbël.",
            ),
            "full_description": (
                "Our Honey Bee buzzes around the party, plays flower-to-flower games and shares a few fun facts about bees with curious children.",
                "Bleta jonë zukat nëpër festë, luan lojëra «nga lulja te lulja» dhe u tregon fëmijëve kureshtarë disa gjëra interesante për bletët.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-little-astronaut": {
        "description": ("An explorer ready for lift-off.", "Një eksplorues gati për nisje."),
        "details": {
            "short_description": (
                "An explorer ready for lift-off.",
                "Një eksplorues gati për nisje.",
            ),
            "full_description": (
                "The Little Astronaut prepares the children for a pretend rocket launch with countdowns, moon walks and a space photo session.",
                "Astronauti i vogël i përgatit fëmijët për një nisje rakete si në lojë, me numërime mbrapsht, ecje si në Hënë dhe fotografi hapësinore.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-friendly-dragon": {
        "description": (
            "A smiling dragon who never breathes fire.",
            "Një dragua i qeshur që nuk nxjerr kurrë zjarr.",
        ),
        "details": {
            "short_description": (
                "A smiling dragon who never breathes fire.",
                "Një dragua i qeshur që nuk nxjerr kurrë zjarr.",
            ),
            "full_description": (
                "Our Friendly Dragon flaps its wings to the music, plays tag with the children and protects the birthday treasure with a big grin.",
                "Dragoi ynë miqësor përplas krahët në ritmin e muzikës, luan lojëra ndjekjeje me fëmijët dhe e ruan thesarin e ditëlindjes me një buzëqeshje të madhe.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-cowboy-sheriff": {
        "description": ("A sheriff from the wild west.", "Një sherif nga Perëndimi i Egër."),
        "details": {
            "short_description": (
                "A sheriff from the wild west.",
                "Një sherif nga Perëndimi i Egër.",
            ),
            "full_description": (
                "The Cowboy Sheriff rounds up the children for a line dance, hands out pretend sheriff badges and keeps the party in good order.",
                "Sherifi kauboj i mbledh fëmijët për një valle në rresht, u ndan yje sherifi për lojë dhe e mban festën në rregull.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Theme Parties"],
                ["Festa ditëlindjeje", "Festa shkollore", "Festa tematike"],
            ),
        },
    },
    "mascot-ninja-warrior": {
        "description": ("A quick and quiet ninja.", "Një ninxha i shpejtë dhe i heshtur."),
        "details": {
            "short_description": (
                "A quick and quiet ninja.",
                "Një ninxha i shpejtë dhe i heshtur.",
            ),
            "full_description": (
                "Our Ninja Warrior teaches a few slow-motion ninja moves, leads a sneaky obstacle game and poses for action photos with the guests.",
                "Luftëtari ynë ninxha u mëson disa lëvizje ninxha me ritëm të ngadaltë, udhëheq një lojë me pengesa në fshehtësi dhe pozon për fotografi aksioni me mysafirët.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-firefighter-hero": {
        "description": (
            "A hero who keeps everyone safe.",
            "Një hero që i mban të gjithë të sigurt.",
        ),
        "details": {
            "short_description": (
                "A hero who keeps everyone safe.",
                "Një hero që i mban të gjithë të sigurt.",
            ),
            "full_description": (
                "The Firefighter Hero runs a playful rescue drill, shares simple safety tips and lets the children join the brave firefighting team.",
                "Heroi zjarrfikës organizon një stërvitje shpëtimi si në lojë, jep këshilla të thjeshta sigurie dhe i fton fëmijët t'i bashkohen ekipit të zjarrfikësve trima.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Community Events"],
                ["Festa ditëlindjeje", "Festa shkollore", "Evente të komunitetit"],
            ),
        },
    },
    "mascot-police-officer": {
        "description": ("A friendly officer on patrol.", "Një polic miqësor në patrullë."),
        "details": {
            "short_description": (
                "A friendly officer on patrol.",
                "Një polic miqësor në patrullë.",
            ),
            "full_description": (
                "Our Police Officer hands out pretend badges, leads a traffic-light game and reminds the children about staying safe in a fun way.",
                "Polici ynë ndan distinktivë për lojë, udhëheq lojën e semaforit dhe u kujton fëmijëve, në mënyrë argëtuese, si të ruhen nga rreziqet.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Community Events"],
                ["Festa ditëlindjeje", "Festa shkollore", "Evente të komunitetit"],
            ),
        },
    },
    "mascot-panda-pal": {
        "description": (
            "A playful panda who loves bamboo.",
            "Një panda lozonjare që e do bambunë.",
        ),
        "details": {
            "short_description": (
                "A playful panda who loves bamboo.",
                "Një panda lozonjare që e do bambunë.",
            ),
            "full_description": (
                "The Panda Pal rolls, waves and dances with the children, then settles down for a gentle story and plenty of cuddly photos.",
                "Shoqja jonë panda rrokulliset, përshëndet dhe kërcen me fëmijët, pastaj ulet për një përrallë të qetë dhe plot fotografi me përqafime.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-pink-bunny": {
        "description": (
            "A bouncy bunny with long ears.",
            "Një lepurush kërcimtar me veshë të gjatë.",
        ),
        "details": {
            "short_description": (
                "A bouncy bunny with long ears.",
                "Një lepurush kërcimtar me veshë të gjatë.",
            ),
            "full_description": (
                "Our Pink Bunny hops into the party with bunny-jump games, an egg-and-spoon race and lots of smiles for the youngest guests.",
                "Lepurushi ynë rozë hyn në festë duke kërcyer, me lojëra kërcimi si lepuj, garë me vezë në lugë dhe shumë buzëqeshje për mysafirët më të vegjël.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Holiday Events"],
                ["Festa ditëlindjeje", "Festa shkollore", "Festat e fundvitit"],
            ),
        },
    },
    "mascot-waddling-penguin": {
        "description": ("A penguin who loves the cold.", "Një pinguin që e do të ftohtin."),
        "details": {
            "short_description": (
                "A penguin who loves the cold.",
                "Një pinguin që e do të ftohtin.",
            ),
            "full_description": (
                "The Waddling Penguin leads a penguin-walk race, plays snowball games with soft balls and dances to winter songs.",
                "Pinguini që ecën duke u lëkundur udhëheq një garë me ecje pinguini, luan me «topa bore» prej sfungjeri dhe kërcen me këngë dimri.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-snowman-buddy": {
        "description": (
            "A jolly snowman who loves warm hugs.",
            "Një burrë bore i gëzuar që i do përqafimet e ngrohta.",
        ),
        "details": {
            "short_description": (
                "A jolly snowman who loves warm hugs.",
                "Një burrë bore i gëzuar që i do përqafimet e ngrohta.",
            ),
            "full_description": (
                "Our Snowman Buddy brings winter cheer to any season, plays freeze games with the children and poses for snowy photos.",
                "Burri ynë i borës sjell gëzimin e dimrit në çdo stinë, luan «ngrij në vend» me fëmijët dhe pozon për fotografi si në mes të dëborës.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Holiday Events"],
                ["Festa ditëlindjeje", "Festa shkollore", "Festat e fundvitit"],
            ),
        },
    },
    "mascot-santa-claus": {
        "description": (
            "The jolly gift-giver from the North Pole.",
            "Dhuruesi i gëzuar nga Poli i Veriut.",
        ),
        "details": {
            "short_description": (
                "The jolly gift-giver from the North Pole.",
                "Dhuruesi i gëzuar nga Poli i Veriut.",
            ),
            "full_description": (
                "Santa Claus visits with his big laugh, listens to every child's wish, hands out the gifts prepared by the parents and poses for family photos.",
                "Babadimri vjen me të qeshurën e tij të madhe, dëgjon dëshirën e çdo fëmije, ndan dhuratat e përgatitura nga prindërit dhe pozon për fotografi familjare.",
            ),
            "suitable_for": (
                ["Holiday Events", "School Events", "Corporate Events"],
                ["Festat e fundvitit", "Festa shkollore", "Evente të kompanive"],
            ),
        },
    },
    "mascot-christmas-elf": {
        "description": (
            "Santa's cheerful little helper.",
            "Ndihmësi i vogël e i gëzuar i Babadimrit.",
        ),
        "details": {
            "short_description": (
                "Santa's cheerful little helper.",
                "Ndihmësi i vogël e i gëzuar i Babadimrit.",
            ),
            "full_description": (
                "The Christmas Elf brings holiday games, a quick gift-wrapping race and festive songs to school parties and end-of-year celebrations.",
                "Xhuxhi i Babadimrit sjell lojëra festive, një garë të shpejtë në mbështjelljen e dhuratave dhe këngë feste për festat shkollore dhe festimet e fundvitit.",
            ),
            "suitable_for": (
                ["Holiday Events", "School Events"],
                ["Festat e fundvitit", "Festa shkollore"],
            ),
        },
    },
    "mascot-gingerbread-man": {
        "description": ("A sweet cookie who loves to run.", "Një biskotë e ëmbël që e do vrapin."),
        "details": {
            "short_description": (
                "A sweet cookie who loves to run.",
                "Një biskotë e ëmbël që e do vrapin.",
            ),
            "full_description": (
                "Our Gingerbread Man challenges the children to catch him in a chasing game, then shares a festive dance before the cake is cut.",
                "Njeriu ynë prej xhenxhefili i sfidon fëmijët ta kapin në një lojë ndjekjeje, pastaj kërcen një valle festive para se të pritet torta.",
            ),
            "suitable_for": (
                ["Birthday Parties", "Holiday Events"],
                ["Festa ditëlindjeje", "Festat e fundvitit"],
            ),
        },
    },
    "mascot-race-car-driver": {
        "description": ("A speedy champion of the track.", "Një kampion i shpejtë i pistës."),
        "details": {
            "short_description": (
                "A speedy champion of the track.",
                "Një kampion i shpejtë i pistës.",
            ),
            "full_description": (
                "The Race Car Driver sets up a pretend race with start flags, pit-stop games and a podium ceremony for every little racer.",
                "Shoferi i garave organizon një garë si në lojë, me flamuj nisjeje, lojëra ndalese në boks dhe një ceremoni në podium për çdo garues të vogël.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-ballerina": {
        "description": (
            "A graceful dancer on her tiptoes.",
            "Një balerinë e hijshme në majë të gishtave.",
        ),
        "details": {
            "short_description": (
                "A graceful dancer on her tiptoes.",
                "Një balerinë e hijshme në majë të gishtave.",
            ),
            "full_description": (
                "Our Ballerina teaches a short, simple dance routine, leads a twirling contest and performs a little show for the birthday child.",
                "Balerina jonë u mëson një koreografi të shkurtër e të thjeshtë, udhëheq një garë rrotullimesh dhe jep një shfaqje të vogël për fëmijën e ditëlindjes.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Dance Recitals"],
                ["Festa ditëlindjeje", "Festa shkollore", "Shfaqje vallëzimi"],
            ),
        },
    },
    "mascot-circus-ringmaster": {
        "description": ("The host of the greatest show.", "Drejtuesi i shfaqjes më të madhe."),
        "details": {
            "short_description": (
                "The host of the greatest show.",
                "Drejtuesi i shfaqjes më të madhe.",
            ),
            "full_description": (
                "The Circus Ringmaster turns the party into a circus with animal acts performed by the children, juggling tries and a grand finale.",
                "Drejtuesi i cirkut e kthen festën në cirk, me numra kafshësh që i luajnë vetë fëmijët, prova zhonglimi dhe një finale madhështore.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Corporate Events"],
                ["Festa ditëlindjeje", "Festa shkollore", "Evente të kompanive"],
            ),
        },
    },
    "mascot-monkey-explorer": {
        "description": ("A curious monkey from the jungle.", "Një majmun kureshtar nga xhungla."),
        "details": {
            "short_description": (
                "A curious monkey from the jungle.",
                "Një majmun kureshtar nga xhungla.",
            ),
            "full_description": (
                "Our Monkey Explorer swings into the party with jungle games, funny faces and a banana-relay race that children adore.",
                "Majmuni ynë eksplorues hyn në festë duke u lëkundur, me lojëra xhungle, fytyra qesharake dhe një garë stafete me banane që fëmijët e adhurojnë.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-happy-puppy": {
        "description": ("A loyal puppy who loves to play.", "Një qenush besnik që e do lojën."),
        "details": {
            "short_description": (
                "A loyal puppy who loves to play.",
                "Një qenush besnik që e do lojën.",
            ),
            "full_description": (
                "The Happy Puppy plays fetch with soft balls, learns tricks from the children and wags along to the party music.",
                "Qenushi i gëzuar sjell mbrapsht topat e butë që i hedhin fëmijët, mëson truke prej tyre dhe tund bishtin në ritmin e muzikës së festës.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-kitty-cat": {
        "description": ("A sweet kitten with a pink bow.", "Një kotele e ëmbël me fjongo rozë."),
        "details": {
            "short_description": (
                "A sweet kitten with a pink bow.",
                "Një kotele e ëmbël me fjongo rozë.",
            ),
            "full_description": (
                "Our Kitty Cat purrs, plays with ribbon toys and leads a gentle cat dance that the youngest guests can easily follow.",
                "Kotelja jonë bën mjau, luan me shirita dhe udhëheq një valle të butë maceje që mysafirët më të vegjël e ndjekin lehtë.",
            ),
            "suitable_for": (
                ["Birthday Parties", "Baby Showers"],
                ["Festa ditëlindjeje", "Festa për ardhjen e bebes"],
            ),
        },
    },
    "mascot-butterfly-friend": {
        "description": (
            "A colourful butterfly with shimmering wings.",
            "Një flutur shumëngjyrëshe me krahë që vezullojnë.",
        ),
        "details": {
            "short_description": (
                "A colourful butterfly with shimmering wings.",
                "Një flutur shumëngjyrëshe me krahë që vezullojnë.",
            ),
            "full_description": (
                "The Butterfly Friend flutters around the garden or hall, plays catch-the-butterfly and helps children paint their own butterfly wings.",
                "Shoqja flutur fluturon nëpër oborr a sallë, luan «kape fluturën» dhe i ndihmon fëmijët të pikturojnë krahët e tyre të fluturës.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Garden Parties"],
                ["Festa ditëlindjeje", "Festa shkollore", "Festa në oborr"],
            ),
        },
    },
    "mascot-owl-professor": {
        "description": ("A wise owl who loves riddles.", "Një buf i urtë që i do gjëegjëzat."),
        "details": {
            "short_description": (
                "A wise owl who loves riddles.",
                "Një buf i urtë që i do gjëegjëzat.",
            ),
            "full_description": (
                "Our Owl Professor hosts a riddle quiz, reads a short story and hands out pretend diplomas to every clever guest.",
                "Profesori buf organizon një kuiz me gjëegjëza, lexon një tregim të shkurtër dhe u ndan diploma për lojë të gjithë mysafirëve të zgjuar.",
            ),
            "suitable_for": (
                ["School Events", "Birthday Parties"],
                ["Festa shkollore", "Festa ditëlindjeje"],
            ),
        },
    },
    "mascot-shark-buddy": {
        "description": (
            "A friendly shark with a big smile.",
            "Një peshkaqen miqësor me buzëqeshje të madhe.",
        ),
        "details": {
            "short_description": (
                "A friendly shark with a big smile.",
                "Një peshkaqen miqësor me buzëqeshje të madhe.",
            ),
            "full_description": (
                "The Shark Buddy swims into the party with an ocean dance, a fishing game and a playful chase around the room.",
                "Shoku peshkaqen hyn në festë duke notuar, me një valle oqeani, një lojë peshkimi dhe një ndjekje lozonjare nëpër sallë.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-good-witch": {
        "description": (
            "A kind witch with a sparkling broom.",
            "Një shtrigë e mirë me fshesë që shkëlqen.",
        ),
        "details": {
            "short_description": (
                "A kind witch with a sparkling broom.",
                "Një shtrigë e mirë me fshesë që shkëlqen.",
            ),
            "full_description": (
                "Our Good Witch mixes a pretend potion of good wishes, plays broom races and casts a happy-birthday spell on the guest of honour.",
                "Shtriga jonë e mirë përzien një ilaç magjik me urime të mira, luan gara me fshesa dhe i hedh festuesit një magji për ditëlindje të lumtur.",
            ),
            "suitable_for": (
                ["Birthday Parties", "Theme Parties"],
                ["Festa ditëlindjeje", "Festa tematike"],
            ),
        },
    },
    "mascot-tall-giraffe": {
        "description": (
            "A gentle giraffe with a very long neck.",
            "Një gjirafë e butë me qafë shumë të gjatë.",
        ),
        "details": {
            "short_description": (
                "A gentle giraffe with a very long neck.",
                "Një gjirafë e butë me qafë shumë të gjatë.",
            ),
            "full_description": (
                "The Tall Giraffe towers over the party with a friendly smile, plays high-and-low games and is always a favourite in group photos.",
                "Gjirafa e gjatë ngrihet mbi gjithë festën me buzëqeshje miqësore, luan lojëra «lart e poshtë» dhe është gjithmonë e preferuara në fotografitë në grup.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events"],
                ["Festa ditëlindjeje", "Festa shkollore"],
            ),
        },
    },
    "mascot-cuddly-elephant": {
        "description": (
            "A gentle elephant with big ears.",
            "Një elefant i butë me veshë të mëdhenj.",
        ),
        "details": {
            "short_description": (
                "A gentle elephant with big ears.",
                "Një elefant i butë me veshë të mëdhenj.",
            ),
            "full_description": (
                "Our Cuddly Elephant stomps to the music, plays trunk-and-tail games and gives warm hugs to every child at the party.",
                "Elefanti ynë i dashur ecën me hapa të rëndë në ritmin e muzikës, luan lojëra me feçkë e bisht dhe jep përqafime të ngrohta për çdo fëmijë në festë.",
            ),
            "suitable_for": (
                ["Birthday Parties", "School Events", "Baby Showers"],
                ["Festa ditëlindjeje", "Festa shkollore", "Festa për ardhjen e bebes"],
            ),
        },
    },
    "enchanted-princess": {
        "description": (
            "A fairy-tale celebration with castle backdrops, royal thrones and sparkling pastel decor.",
            "Një festë si në përralla, me sfond kështjelle, frone mbretërore dhe dekor pastel që shkëlqen.",
        ),
        "details": {
            "age": ("3-10 years", "3-10 vjeç"),
            "duration": ("4-6 hours", "4-6 orë"),
            "capacity": ("Up to 30 guests", "Deri në 30 mysafirë"),
            "long_description": (
                "Step into a fairy tale. Our Enchanted Princess theme turns any room or garden into a royal palace, with a castle backdrop, soft pastel drapes and a glittering throne for the birthday princess.\n\nEvery detail is styled to match: balloon arches in blush pink and gold, crowns and wands for the little guests, and a dessert table dressed like a royal banquet.\n\nOur team delivers, sets up and takes everything down again, so you can enjoy the celebration while the children enjoy their day at the palace.",
                "Hyni në një përrallë. Tema jonë Enchanted Princess e kthen çdo sallë a oborr në një pallat mbretëror, me sfond kështjelle, perde të buta në ngjyra pastel dhe një fron që shkëlqen për princeshën e ditëlindjes.\n\nÇdo detaj përputhet me temën: harqe me balona në rozë të zbehtë dhe ar, kurora dhe shkopinj magjikë për mysafirët e vegjël, dhe një tavolinë ëmbëlsirash e shtruar si për gosti mbretërore.\n\nEkipi ynë i sjell, i monton dhe i çmonton të gjitha, që ju ta shijoni festën, ndërsa fëmijët kalojnë ditën e tyre në pallat.",
            ),
            "features": (
                [
                    "Castle backdrop with fairy lights",
                    "Royal throne for the birthday child",
                    "Pink and gold balloon arch",
                    "Themed dessert table styling",
                    "Crowns and wands for up to 30 guests",
                    "Princess-themed table settings",
                    "Delivery, setup and takedown included",
                ],
                [
                    "Sfond kështjelle me varg dritash",
                    "Fron mbretëror për fëmijën që feston",
                    "Hark me balona rozë dhe ari",
                    "Tavolinë ëmbëlsirash e dekoruar sipas temës",
                    "Kurora dhe shkopinj magjikë për deri në 30 mysafirë",
                    "Shtrim tavolinash me temë princeshash",
                    "Përfshihen dorëzimi, montimi dhe çmontimi",
                ],
            ),
            "add_ons": (
                [
                    {"name": "Princess mascot visit (1 hour)", "price": "149.00"},
                    {"name": "Face painting station", "price": "99.00"},
                    {"name": "Bubble house (3 hours)", "price": "199.00"},
                    {"name": "Custom birthday cake display", "price": "129.00"},
                    {"name": "Royal photo booth with props", "price": "299.00"},
                ],
                [
                    {"name": "Vizitë e maskotës princeshë (1 orë)", "price": "149.00"},
                    {"name": "Kënd për pikturim fytyre", "price": "99.00"},
                    {"name": "Shtëpi me flluska (3 orë)", "price": "199.00"},
                    {"name": "Paraqitje e tortës së ditëlindjes sipas dëshirës", "price": "129.00"},
                    {"name": "Kënd fotografik mbretëror me aksesorë", "price": "299.00"},
                ],
            ),
        },
    },
    "cosmic-adventure": {
        "description": (
            "A journey through the stars with planets, rockets and glowing galaxy lights.",
            "Një udhëtim mes yjeve, me planetë, raketa dhe drita galaktike që ndriçojnë.",
        ),
        "details": {
            "age": ("5-12 years", "5-12 vjeç"),
            "duration": ("4-6 hours", "4-6 orë"),
            "capacity": ("Up to 30 guests", "Deri në 30 mysafirë"),
            "long_description": (
                "Blast off into outer space. The Cosmic Adventure theme fills the venue with hanging planets, a rocket-launch backdrop and glowing galaxy lighting that makes every corner feel like a space station.\n\nChildren receive mission badges, explore a starry photo corner and gather around a dessert table styled as mission control.\n\nWe handle delivery, assembly and takedown, leaving you free to enjoy the countdown to the best birthday in the galaxy.",
                "Nisuni drejt hapësirës. Tema Cosmic Adventure e mbush ambientin me planetë të varur, një sfond me raketë në nisje dhe ndriçim galaktik që e bën çdo cep të duket si stacion hapësinor.\n\nFëmijët marrin distinktivë misioni, eksplorojnë një kënd fotografik plot yje dhe mblidhen rreth një tavoline ëmbëlsirash të dekoruar si qendër kontrolli e misionit.\n\nNe kujdesemi për dorëzimin, montimin dhe çmontimin, që ju të shijoni numërimin mbrapsht drejt ditëlindjes më të bukur në galaktikë.",
            ),
            "features": (
                [
                    "Rocket-launch backdrop",
                    "Hanging planets and star garlands",
                    "Galaxy LED lighting",
                    "Mission-control dessert table",
                    "Astronaut badges for up to 30 guests",
                    "Starry photo corner",
                    "Space-themed table settings",
                    "Delivery, setup and takedown included",
                ],
                [
                    "Sfond me raketë në nisje",
                    "Planetë të varur dhe girlanda me yje",
                    "Ndriçim galaktik LED",
                    "Tavolinë ëmbëlsirash si qendër kontrolli e misionit",
                    "Distinktivë astronauti për deri në 30 mysafirë",
                    "Kënd fotografik plot yje",
                    "Shtrim tavolinash me temë hapësinore",
                    "Përfshihen dorëzimi, montimi dhe çmontimi",
                ],
            ),
            "add_ons": (
                [
                    {"name": "Space Ranger mascot visit (1 hour)", "price": "149.00"},
                    {"name": "Glow-in-the-dark party pack", "price": "99.00"},
                    {"name": "Castle bouncer (3 hours)", "price": "249.00"},
                    {"name": "Planetarium dome projection", "price": "299.00"},
                ],
                [
                    {"name": "Vizitë e maskotës Space Ranger (1 orë)", "price": "149.00"},
                    {"name": "Paketë feste që ndriçon në errësirë", "price": "99.00"},
                    {"name": "Kështjellë kërcyese (3 orë)", "price": "249.00"},
                    {"name": "Projeksion planetariumi në kupolë", "price": "299.00"},
                ],
            ),
        },
    },
    "jungle-safari": {
        "description": (
            "A wild safari party with tropical leaves, friendly animals and explorer gear.",
            "Një festë safari plot aventurë, me gjethe tropikale, kafshë miqësore dhe pajisje eksploruesi.",
        ),
        "details": {
            "age": ("2-8 years", "2-8 vjeç"),
            "duration": ("4-6 hours", "4-6 orë"),
            "capacity": ("Up to 30 guests", "Deri në 30 mysafirë"),
            "long_description": (
                "Head out on safari without leaving home. Our Jungle Safari theme brings tropical leaves, friendly animal figures and an explorer's camp to your celebration.\n\nLittle adventurers get explorer hats and binoculars, follow animal tracks around the venue and gather at a dessert table dressed in green and gold.\n\nDelivery, setup and takedown are included, so the only thing you need to bring is your sense of adventure.",
                "Nisuni për safari pa dalë nga shtëpia. Tema jonë Jungle Safari i sjell festës suaj gjethe tropikale, figura kafshësh miqësore dhe një kamp eksploruesish.\n\nAventurierët e vegjël marrin kapela eksploruesi dhe dylbi, ndjekin gjurmët e kafshëve nëpër ambient dhe mblidhen te një tavolinë ëmbëlsirash në të gjelbër dhe ar.\n\nDorëzimi, montimi dhe çmontimi përfshihen në çmim, kështu që e vetmja gjë që duhet të sillni është dëshira për aventurë.",
            ),
            "features": (
                [
                    "Tropical leaf backdrop",
                    "Jungle animal figures",
                    "Green and gold balloon garland",
                    "Explorer hats and binoculars for guests",
                    "Safari dessert table styling",
                    "Delivery, setup and takedown included",
                ],
                [
                    "Sfond me gjethe tropikale",
                    "Figura kafshësh të xhunglës",
                    "Girlandë me balona të gjelbra dhe ari",
                    "Kapela eksploruesi dhe dylbi për mysafirët",
                    "Tavolinë ëmbëlsirash e dekoruar si safari",
                    "Përfshihen dorëzimi, montimi dhe çmontimi",
                ],
            ),
            "add_ons": (
                [
                    {"name": "Jolly Lion mascot visit (1 hour)", "price": "149.00"},
                    {"name": "Jungle bouncer (3 hours)", "price": "199.00"},
                    {"name": "Animal face painting", "price": "99.00"},
                    {"name": "Safari photo booth with props", "price": "299.00"},
                ],
                [
                    {"name": "Vizitë e maskotës Jolly Lion (1 orë)", "price": "149.00"},
                    {"name": "Kërcyese xhungle (3 orë)", "price": "199.00"},
                    {"name": "Pikturim fytyre me kafshë", "price": "99.00"},
                    {"name": "Kënd fotografik safari me aksesorë", "price": "299.00"},
                ],
            ),
        },
    },
}
BANNER_ITEMS = {
    "banner-bouncers": {"Bubble & Bouncer": "Flluska & Bouncer"},
    "gallery-mascot-works": {
        "Birthday Party": "Festë Ditëlindjeje",
        "Corporate Event": "Event Kompanie",
        "School Event": "Festë Shkollore",
        "Wedding": "Dasmë",
        "Theme Park": "Park Tematik",
    },
    "gallery-bubbles": {
        "Bubble House 1": "Shtëpi me Flluska 1",
        "Bubble House 2": "Shtëpi me Flluska 2",
        "Bubble House 3": "Shtëpi me Flluska 3",
        "Bubble House 4": "Shtëpi me Flluska 4",
        "Bubble House 5": "Shtëpi me Flluska 5",
        "Bubble House 6": "Shtëpi me Flluska 6",
        "Bubble House 7": "Shtëpi me Flluska 7",
        "Bubble House 8": "Shtëpi me Flluska 8",
    },
}
BANNERS = {
    "banner-weddings": (
        "Galeria e dasmave në faqen Magic Weddings.",
        "Galeria e dasmave në faqen Dasma magjike.",
    ),
    "banner-mascots": (
        "Galeria e maskotave në faqen Mascots.",
        "Galeria e maskotave në faqen Maskotat.",
    ),
    "gallery-home-weddings": (
        "Photos of the home-weddings gallery",
        "Fotot e galerisë home-weddings",
    ),
    "gallery-home-bouncers": (
        "Photos of the home-bouncers gallery",
        "Fotot e galerisë home-bouncers",
    ),
    "gallery-home-mascots": ("Photos of the home-mascots gallery", "Fotot e galerisë home-mascots"),
    "gallery-wedding-filmstrip": (
        "Photos of the wedding-filmstrip gallery",
        "Fotot e galerisë wedding-filmstrip",
    ),
    "gallery-mascot-works": ("Photos of the mascot-works gallery", "Fotot e galerisë mascot-works"),
    "gallery-bouncer-strip": (
        "Photos of the bouncer-strip gallery",
        "Fotot e galerisë bouncer-strip",
    ),
    "gallery-bubbles": ("Photos of the bubbles gallery", "Fotot e galerisë bubbles"),
    "gallery-bouncers": ("Photos of the bouncers gallery", "Fotot e galerisë bouncers"),
}

BUSINESS = {
    "address": ("Prishtina, Kosovo", "Prishtinë, Kosovë"),
    "opening_hours": ("Monday to Friday 9AM-6PM", "E hënë - e premte 9:00-18:00"),
}


def _written(value) -> bool:
    """Whether a text (a list, a dict) was written; a blank one reads as missing."""
    if isinstance(value, str):
        return bool(value.strip())
    return value not in (None, [], {})


def _json(value):
    """A JSON column's value as a dict (some drivers hand it back as text)."""
    if isinstance(value, str):
        value = json.loads(value or "{}")
    return value if isinstance(value, dict) else {}


def _in_albanian(values: dict, translations: dict, texts: dict, *, details: str | None = None):
    """`values` (the default columns, or a service's details) with each text that is still the
    old English one (`texts`: field -> (English, Albanian)) in Albanian, and `translations` with
    that English in "en" (under `details` when given) where none was written. None when
    nothing changes."""
    changed = {
        field: albanian
        for field, (english, albanian) in texts.items()
        if values.get(field) == english
    }
    if not changed:
        return None
    result = {k: dict(v) for k, v in translations.items() if isinstance(v, dict)}
    own = result.setdefault("en", {})
    target = own
    if details:
        target = dict(own[details]) if isinstance(own.get(details), dict) else {}
    for field in changed:
        if not _written(target.get(field)):
            target[field] = texts[field][0]
    if details:
        own[details] = target
    return {**values, **changed}, result


def _back(values: dict, texts: dict) -> dict:
    """The Albanian texts of `values` back to the old English (downgrade)."""
    return {
        field: english
        for field, (english, albanian) in texts.items()
        if values.get(field) == albanian
    }


def _tables():
    category = sa.table(
        "service_categories",
        sa.column("id"),
        sa.column("slug", sa.String()),
        sa.column("name", sa.String()),
        sa.column("description", sa.Text()),
        sa.column("translations", sa.JSON()),
    )
    service = sa.table(
        "services",
        sa.column("id"),
        sa.column("slug", sa.String()),
        sa.column("title", sa.String()),
        sa.column("description", sa.Text()),
        sa.column("metadata", sa.JSON()),
        sa.column("translations", sa.JSON()),
    )
    banner = sa.table(
        "banners",
        sa.column("id"),
        sa.column("name", sa.String()),
        sa.column("description", sa.Text()),
    )
    item = sa.table(
        "banner_items",
        sa.column("id"),
        sa.column("banner_id"),
        sa.column("title", sa.String()),
        sa.column("translations", sa.JSON()),
    )
    business = sa.table(
        "business_settings",
        sa.column("id"),
        sa.column("address", sa.String()),
        sa.column("opening_hours", sa.String()),
        sa.column("translations", sa.JSON()),
    )
    return category, service, banner, item, business


def upgrade() -> None:
    bind = op.get_bind()
    category, service, banner, item, business = _tables()

    for row in bind.execute(sa.select(category)).mappings().all():
        texts = CATEGORIES.get(row["slug"])
        done = texts and _in_albanian(dict(row), _json(row["translations"]), texts)
        if done:
            values, translations = done
            changed = {field: values[field] for field in texts}
            bind.execute(
                category.update()
                .where(category.c.id == row["id"])
                .values(**changed, translations=translations)
            )

    for row in bind.execute(sa.select(service)).mappings().all():
        texts = SERVICES.get(row["slug"])
        if not texts:
            continue
        translations = _json(row["translations"])
        values = {}
        plain = {k: v for k, v in texts.items() if k != "details"}
        done = _in_albanian(dict(row), translations, plain)
        if done:
            columns, translations = done
            values.update({field: columns[field] for field in plain})
        meta = _json(row["metadata"])
        done = _in_albanian(meta, translations, texts.get("details", {}), details="details")
        if done:
            meta, translations = done
            values["metadata"] = meta
        if values:
            bind.execute(
                service.update()
                .where(service.c.id == row["id"])
                .values(**values, translations=translations)
            )

    banners = {row.name: row.id for row in bind.execute(sa.select(banner.c.id, banner.c.name))}
    for name, (english, albanian) in BANNERS.items():
        if name in banners:
            bind.execute(
                banner.update()
                .where(banner.c.id == banners[name], banner.c.description == english)
                .values(description=albanian)
            )
    for name, captions in BANNER_ITEMS.items():
        if name not in banners:
            continue
        rows = bind.execute(sa.select(item).where(item.c.banner_id == banners[name])).mappings()
        for row in rows.all():
            texts = (
                {"title": (row["title"], captions[row["title"]])}
                if row["title"] in captions
                else {}
            )
            done = texts and _in_albanian(dict(row), _json(row["translations"]), texts)
            if done:
                values, translations = done
                bind.execute(
                    item.update()
                    .where(item.c.id == row["id"])
                    .values(title=values["title"], translations=translations)
                )

    for row in bind.execute(sa.select(business)).mappings().all():
        done = _in_albanian(dict(row), _json(row["translations"]), BUSINESS)
        if done:
            values, translations = done
            changed = {field: values[field] for field in BUSINESS}
            bind.execute(
                business.update()
                .where(business.c.id == row["id"])
                .values(**changed, translations=translations)
            )


def downgrade() -> None:
    """The default columns back to the old English where they still hold the Albanian of this
    revision (the English in `translations` stays: it is what the English edition shows)."""
    bind = op.get_bind()
    category, service, banner, item, business = _tables()
    for row in bind.execute(sa.select(category)).mappings().all():
        back = _back(dict(row), CATEGORIES.get(row["slug"], {}))
        if back:
            bind.execute(category.update().where(category.c.id == row["id"]).values(**back))
    for row in bind.execute(sa.select(service)).mappings().all():
        texts = SERVICES.get(row["slug"])
        if not texts:
            continue
        back = _back(dict(row), {k: v for k, v in texts.items() if k != "details"})
        meta = _json(row["metadata"])
        details = _back(meta, texts.get("details", {}))
        if details:
            back["metadata"] = {**meta, **details}
        if back:
            bind.execute(service.update().where(service.c.id == row["id"]).values(**back))
    banners = {row.name: row.id for row in bind.execute(sa.select(banner.c.id, banner.c.name))}
    for name, (english, albanian) in BANNERS.items():
        if name in banners:
            bind.execute(
                banner.update()
                .where(banner.c.id == banners[name], banner.c.description == albanian)
                .values(description=english)
            )
    for name, captions in BANNER_ITEMS.items():
        if name not in banners:
            continue
        for english, albanian in captions.items():
            bind.execute(
                item.update()
                .where(item.c.banner_id == banners[name], item.c.title == albanian)
                .values(title=english)
            )
    for row in bind.execute(sa.select(business)).mappings().all():
        back = _back(dict(row), BUSINESS)
        if back:
            bind.execute(business.update().where(business.c.id == row["id"]).values(**back))
