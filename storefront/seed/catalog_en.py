"""The demo catalogue in English (pure data, no logic): what the English edition (/en/...) shows
for each row storefront/seed/catalog.py creates, written into its `translations['en']` by the
loader (services/content.py reads it).

- CATEGORIES, SERVICES: by slug; a service's `details` are the texts of its kind's details
  (models/service_details.py) and replace the default's key by key, so a list is given whole
  (a wedding offer's `lines` with their amounts, a theme's `add_ons` with their prices): only
  the words differ from catalog.py.
- BANNER_ITEMS: a banner item's caption by its default caption; BANNER_ITEM_DESCRIPTIONS: its
  description by the default description (one caption has two descriptions in catalog.py).

Names of characters, themes and products stay as they are (the same in both files); every other
text here is the English of catalog.py's Albanian. The mascots', themes' and categories' English
is, word for word, what catalog.py wrote in the default columns before they were written in
Albanian (alembic/versions/0021 moves an older database's English into `translations`)."""

CATEGORIES = {
    "magic-weddings": {
        "name": "Magic Weddings",
        "description": "Magical wedding decoration: complete offers for 100 and 200 guests, a welcome mirror, seating-plan boards and Tiffany chairs.",
    },
    "mascots": {
        "name": "Mascots",
        "description": "Mascots for birthdays, circumcision celebrations and school parties, with activity packages for the children.",
    },
    "bouncers": {
        "name": "Bouncers",
        "description": "Bubble houses and bouncy castles, delivered, set up and inflated at your party venue.",
    },
    "wedding-tables": {
        "name": "Wedding Tables",
        "description": "White and black tables, 60cm or 80cm in diameter, for weddings and events, with tablecloths, transport and setup.",
    },
    "themed-decorations": {
        "name": "Themed Decorations",
        "description": "Themed decorations for children's parties: Enchanted Princess, Cosmic Adventure and Jungle Safari.",
    },
}

SERVICES = {
    "oferta-100-persona": {
        "title": "Offer for 100 guests",
        "description": "Complete wedding decoration for 100 guests: the base decoration, the guest tables (€3 per person), the welcome mirror and the seating-plan boards. Total €650.",
        "details": {
            "lines": [
                {"label": "Base decoration", "amount": "225.00"},
                {"label": "Guest tables (€3 per person)", "amount": "300.00"},
                {"label": "Welcome mirror", "amount": "50.00"},
                {"label": "Seating-plan boards", "amount": "75.00"},
            ]
        },
    },
    "oferta-200-persona": {
        "title": "Offer for 200 guests",
        "description": "Complete wedding decoration for 200 guests: the base decoration, the guest tables (€3 per person), the welcome mirror and the seating-plan boards. Total €1300.",
        "details": {
            "lines": [
                {"label": "Base decoration", "amount": "450.00"},
                {"label": "Guest tables (€3 per person)", "amount": "600.00"},
                {"label": "Welcome mirror", "amount": "100.00"},
                {"label": "Seating-plan boards", "amount": "150.00"},
            ]
        },
    },
    "tiffany-chairs": {
        "title": "Tiffany chairs with tables",
        "description": "Tiffany chairs with tables for your wedding guests, €5 per person. Enter the number of guests and the total is calculated automatically.",
    },
    "white-tables-60cm": {
        "title": "White tables 60cm",
        "description": "A white table, 60cm in diameter, for weddings and events, €7 per table.",
    },
    "white-tables-80cm": {
        "title": "White tables 80cm",
        "description": "A white table, 80cm in diameter, for weddings and events, €7 per table.",
    },
    "black-tables-60cm": {
        "title": "Black tables 60cm",
        "description": "A black table, 60cm in diameter, for weddings and events, €7 per table.",
    },
    "black-tables-80cm": {
        "title": "Black tables 80cm",
        "description": "A black table, 80cm in diameter, for weddings and events, €7 per table.",
    },
    "paketa-maskota-1": {
        "title": "Package 1",
        "description": "Mascot package: 1 mascot of your choice, a 40-minute visit, music and dancing with the children, photos with the mascot.",
        "details": {
            "features": [
                "🧸 1 mascot of your choice",
                "⏱️ A 40-minute visit",
                "🎵 Music and dancing with the children",
                "📸 Photos with the mascot",
            ]
        },
    },
    "paketa-maskota-2": {
        "title": "Package 2",
        "description": "Mascot package: 1 mascot of your choice, a 1-hour visit, music and dancing with the children, games for the children, photos with the mascot.",
        "details": {
            "features": [
                "🧸 1 mascot of your choice",
                "⏱️ A 1-hour visit",
                "🎵 Music and dancing with the children",
                "🎲 Games for the children",
                "📸 Photos with the mascot",
            ]
        },
    },
    "paketa-maskota-3": {
        "title": "Package 3",
        "description": "Mascot package: 2 mascots of your choice, a 40-minute visit, music and dancing with the children, photos with the mascots.",
        "details": {
            "features": [
                "🧸 2 mascots of your choice",
                "⏱️ A 40-minute visit",
                "🎵 Music and dancing with the children",
                "📸 Photos with the mascots",
            ]
        },
    },
    "paketa-maskota-4": {
        "title": "Package 4",
        "description": "Mascot package: 2 mascots of your choice, a 1-hour visit, music and dancing with the children, games for the children, photos with the mascots.",
        "details": {
            "features": [
                "🧸 2 mascots of your choice",
                "⏱️ A 1-hour visit",
                "🎵 Music and dancing with the children",
                "🎲 Games for the children",
                "📸 Photos with the mascots",
            ]
        },
    },
    "paketa-maskota-5": {
        "title": "Package 5",
        "description": "Mascot package: 3 mascots of your choice, a 40-minute visit, music and dancing with the children, games for the children, photos with the mascots.",
        "details": {
            "features": [
                "🧸 3 mascots of your choice",
                "⏱️ A 40-minute visit",
                "🎵 Music and dancing with the children",
                "🎲 Games for the children",
                "📸 Photos with the mascots",
            ]
        },
    },
    "paketa-maskota-6": {
        "title": "Package 6",
        "description": "Mascot package: 3 mascots of your choice, a 1-hour visit, 1 assistant for the children, games for the children, a gift for the guest of honour, photos with the mascots.",
        "details": {
            "features": [
                "🧸 3 mascots of your choice",
                "⏱️ A 1-hour visit",
                "👩 1 assistant for the children",
                "🎲 Games for the children",
                "🎁 A gift for the guest of honour",
                "📸 Photos with the mascots",
            ]
        },
    },
    "paketa-aktivitete-1": {
        "title": "Package 1",
        "description": "Mascot and activities package for a circumcision celebration: 1 mascot for 40 minutes, face painting, games and music for the children.",
        "details": {
            "features": [
                "🧸 1 mascot for 40 minutes",
                "🎨 Face painting",
                "🎲 Games and music for the children",
            ]
        },
    },
    "paketa-aktivitete-2": {
        "title": "Package 2",
        "description": "Mascot and activities package for a circumcision celebration: 1 mascot for 1 hour, face painting, balloon figures, 1 assistant for the children.",
        "details": {
            "features": [
                "🧸 1 mascot for 1 hour",
                "🎨 Face painting",
                "🎈 Balloon figures",
                "👩 1 assistant for the children",
            ]
        },
    },
    "paketa-aktivitete-3": {
        "title": "Package 3",
        "description": "Mascot and activities package for a circumcision celebration: 1 mascot for 1 hour, a bubble house for 3 hours, 50 balloons in the bubble house, 1 assistant for the children.",
        "details": {
            "features": [
                "🧸 1 mascot for 1 hour",
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons in the bubble house",
                "👩 1 assistant for the children",
            ]
        },
    },
    "paketa-aktivitete-4": {
        "title": "Package 4",
        "description": "Mascot and activities package for a circumcision celebration: 2 mascots for 40 minutes, face painting, balloon figures, 1 assistant for the children.",
        "details": {
            "features": [
                "🧸 2 mascots for 40 minutes",
                "🎨 Face painting",
                "🎈 Balloon figures",
                "👩 1 assistant for the children",
            ]
        },
    },
    "paketa-aktivitete-5": {
        "title": "Package 5",
        "description": "Mascot and activities package for a circumcision celebration: 2 mascots for 1 hour, face painting, a soap bubble show, games and music for the children, 1 assistant for the children.",
        "details": {
            "features": [
                "🧸 2 mascots for 1 hour",
                "🎨 Face painting",
                "🫧 Soap bubble show",
                "🎲 Games and music for the children",
                "👩 1 assistant for the children",
            ]
        },
    },
    "paketa-aktivitete-6": {
        "title": "Package 6",
        "description": "Mascot and activities package for a circumcision celebration: 2 mascots for 1 hour, a bouncy castle for 3 hours, face painting, balloon figures, 1 assistant for the children.",
        "details": {
            "features": [
                "🧸 2 mascots for 1 hour",
                "🏰 Bouncy castle for 3 hours",
                "🎨 Face painting",
                "🎈 Balloon figures",
                "👩 1 assistant for the children",
            ]
        },
    },
    "paketa-bubbles-1": {
        "title": "Package 1",
        "description": "Bubble house package: a bubble house for 3 hours, 50 balloons inside, delivery, setup and inflation.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bubbles-2": {
        "title": "Package 2",
        "description": "Bubble house package: a bubble house for 3 hours, 50 balloons inside, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bubbles-3": {
        "title": "Package 3",
        "description": "Bubble house package: a bubble house for 3 hours, 50 balloons inside, 1 mascot for 40 minutes, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "🧸 1 mascot for 40 minutes",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bubbles-4": {
        "title": "Package 4",
        "description": "Bubble house package: a bubble house for 3 hours, 50 balloons inside, 1 mascot for 1 hour, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "🧸 1 mascot for 1 hour",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bubbles-5": {
        "title": "Package 5",
        "description": "Bubble house package: a bubble house for 3 hours, 50 balloons inside, 1 mascot for 1 hour, face painting, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "🧸 1 mascot for 1 hour",
                "🎨 Face painting",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bubbles-6": {
        "title": "Package 6",
        "description": "Bubble house package: a bubble house for 3 hours, 50 balloons inside, 2 mascots for 1 hour, face painting, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "🧸 2 mascots for 1 hour",
                "🎨 Face painting",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bouncers-1": {
        "title": "Package 1",
        "description": "Bouncy castle package: a bouncy castle for 3 hours, delivery, setup and inflation, takedown after the party.",
        "details": {
            "features": [
                "🏰 Bouncy castle for 3 hours",
                "🚚 Delivery, setup and inflation",
                "🧹 Takedown after the party",
            ]
        },
    },
    "paketa-bouncers-2": {
        "title": "Package 2",
        "description": "Bouncy castle package: a bouncy castle for 3 hours, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🏰 Bouncy castle for 3 hours",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bouncers-3": {
        "title": "Package 3",
        "description": "Bouncy castle package: a bouncy castle for 3 hours, 1 mascot for 40 minutes, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🏰 Bouncy castle for 3 hours",
                "🧸 1 mascot for 40 minutes",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bouncers-4": {
        "title": "Package 4",
        "description": "Bouncy castle package: a bouncy castle for 3 hours, 1 mascot for 1 hour, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🏰 Bouncy castle for 3 hours",
                "🧸 1 mascot for 1 hour",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bouncers-5": {
        "title": "Package 5",
        "description": "Bouncy castle package: a bouncy castle for 3 hours, 1 mascot for 1 hour, face painting, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🏰 Bouncy castle for 3 hours",
                "🧸 1 mascot for 1 hour",
                "🎨 Face painting",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bouncers-6": {
        "title": "Package 6",
        "description": "Bouncy castle package: a bouncy castle for 3 hours, 2 mascots for 1 hour, face painting, balloon figures, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🏰 Bouncy castle for 3 hours",
                "🧸 2 mascots for 1 hour",
                "🎨 Face painting",
                "🎈 Balloon figures",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bubble-bouncer-1": {
        "title": "Package 1",
        "description": "Bubble house and bouncy castle package: a bubble house for 3 hours, 50 balloons inside, a bouncy castle for 3 hours, delivery, setup and inflation.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "🏰 Bouncy castle for 3 hours",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bubble-bouncer-2": {
        "title": "Package 2",
        "description": "Bubble house and bouncy castle package: a bubble house for 3 hours, 50 balloons inside, a bouncy castle for 3 hours, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "🏰 Bouncy castle for 3 hours",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bubble-bouncer-3": {
        "title": "Package 3",
        "description": "Bubble house and bouncy castle package: a bubble house for 3 hours, 50 balloons inside, a bouncy castle for 3 hours, 1 mascot for 40 minutes, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "🏰 Bouncy castle for 3 hours",
                "🧸 1 mascot for 40 minutes",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bubble-bouncer-4": {
        "title": "Package 4",
        "description": "Bubble house and bouncy castle package: a bubble house for 3 hours, 50 balloons inside, a bouncy castle for 3 hours, 1 mascot for 1 hour, 1 assistant for the children, delivery, setup and inflation.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "🏰 Bouncy castle for 3 hours",
                "🧸 1 mascot for 1 hour",
                "👩 1 assistant for the children",
                "🚚 Delivery, setup and inflation",
            ]
        },
    },
    "paketa-bubble-bouncer-5": {
        "title": "Package 5",
        "description": "Bubble house and bouncy castle package: a bubble house for 3 hours, 50 balloons inside, a bouncy castle for 3 hours, 2 mascots for 1 hour, face painting, 1 assistant for the children.",
        "details": {
            "features": [
                "🫧 Bubble house for 3 hours",
                "🎈 50 balloons inside",
                "🏰 Bouncy castle for 3 hours",
                "🧸 2 mascots for 1 hour",
                "🎨 Face painting",
                "👩 1 assistant for the children",
            ]
        },
    },
    "mascot-ice-princess": {
        "title": "Ice Princess",
        "description": "A graceful princess of snow and ice.",
        "details": {
            "short_description": "A graceful princess of snow and ice.",
            "full_description": "Our Ice Princess glides into the party in a sparkling blue gown, sings winter songs with the children and poses for photos beside the birthday cake.",
            "suitable_for": ["Birthday Parties", "School Events", "Weddings"],
        },
    },
    "mascot-space-ranger": {
        "title": "Space Ranger",
        "description": "A brave hero from outer space.",
        "details": {
            "short_description": "A brave hero from outer space.",
            "full_description": "The Space Ranger arrives on a mission to make the party fun: countdowns, astronaut salutes and a space-training game that every child can join.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-friendly-dinosaur": {
        "title": "Friendly Dinosaur",
        "description": "A big, gentle dinosaur who loves hugs.",
        "details": {
            "short_description": "A big, gentle dinosaur who loves hugs.",
            "full_description": "Our Friendly Dinosaur stomps in with a smile, plays hide-and-seek, dances to party music and gives the gentlest dinosaur hugs in town.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-pirate-captain": {
        "title": "Pirate Captain",
        "description": "A jolly captain ready for a treasure hunt.",
        "details": {
            "short_description": "A jolly captain ready for a treasure hunt.",
            "full_description": "The Pirate Captain leads the children on a treasure hunt around the venue, teaches them a pirate song and awards every little sailor a place in the crew.",
            "suitable_for": ["Birthday Parties", "School Events", "Theme Parties"],
        },
    },
    "mascot-sea-princess": {
        "title": "Sea Princess",
        "description": "A cheerful princess from under the sea.",
        "details": {
            "short_description": "A cheerful princess from under the sea.",
            "full_description": "The Sea Princess brings the magic of the ocean with bubble games, sea-creature stories and a shimmering tail that children love to photograph.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-brave-knight": {
        "title": "Brave Knight",
        "description": "A noble knight in shining armour.",
        "details": {
            "short_description": "A noble knight in shining armour.",
            "full_description": "Our Brave Knight hosts a knighting ceremony for the birthday child, leads a friendly quest and guards the cake until it is time to sing.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-flower-fairy": {
        "title": "Flower Fairy",
        "description": "A tiny fairy who makes flowers bloom.",
        "details": {
            "short_description": "A tiny fairy who makes flowers bloom.",
            "full_description": "The Flower Fairy sprinkles pretend fairy dust, tells garden stories and helps the children make flower crowns during the party.",
            "suitable_for": ["Birthday Parties", "School Events", "Garden Parties"],
        },
    },
    "mascot-masked-superhero": {
        "title": "Masked Superhero",
        "description": "A caped hero who saves the day.",
        "details": {
            "short_description": "A caped hero who saves the day.",
            "full_description": "Our Masked Superhero runs a hero-training course with jumps, poses and a secret hero oath, then stays for photos with every young hero.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-rainbow-unicorn": {
        "title": "Rainbow Unicorn",
        "description": "A magical unicorn with a rainbow mane.",
        "details": {
            "short_description": "A magical unicorn with a rainbow mane.",
            "full_description": "The Rainbow Unicorn trots in with a colourful mane, plays musical games and brings a little extra magic to every birthday wish.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-jolly-lion": {
        "title": "Jolly Lion",
        "description": "The friendliest king of the jungle.",
        "details": {
            "short_description": "The friendliest king of the jungle.",
            "full_description": "Our Jolly Lion roars softly, teaches the children animal dances and leads a jungle parade around the party room.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-teddy-bear": {
        "title": "Teddy Bear",
        "description": "A soft and cuddly teddy bear.",
        "details": {
            "short_description": "A soft and cuddly teddy bear.",
            "full_description": "The Teddy Bear is perfect for the youngest guests: slow dances, gentle hugs and plenty of time for photos with the whole family.",
            "suitable_for": ["Birthday Parties", "Baby Showers"],
        },
    },
    "mascot-magic-wizard": {
        "title": "Magic Wizard",
        "description": "A wise wizard full of surprises.",
        "details": {
            "short_description": "A wise wizard full of surprises.",
            "full_description": "Our Magic Wizard performs simple tricks, casts a birthday spell over the cake and lets every child try a wave of the magic wand.",
            "suitable_for": ["Birthday Parties", "School Events", "Theme Parties"],
        },
    },
    "mascot-royal-princess": {
        "title": "Royal Princess",
        "description": "A kind princess in a golden gown.",
        "details": {
            "short_description": "A kind princess in a golden gown.",
            "full_description": "The Royal Princess holds a royal ball for the children, teaches a simple princess dance and crowns the birthday child for the day.",
            "suitable_for": ["Birthday Parties", "School Events", "Weddings"],
        },
    },
    "mascot-cheerful-clown": {
        "title": "Cheerful Clown",
        "description": "A funny clown who makes everyone laugh.",
        "details": {
            "short_description": "A funny clown who makes everyone laugh.",
            "full_description": "Our Cheerful Clown brings jokes, silly walks and party games that keep children laughing from the first song to the last slice of cake.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-robot-buddy": {
        "title": "Robot Buddy",
        "description": "A friendly robot from the future.",
        "details": {
            "short_description": "A friendly robot from the future.",
            "full_description": "The Robot Buddy speaks in beeps, dances the robot and challenges the children to a freeze-dance game they will not forget.",
            "suitable_for": ["Birthday Parties", "School Events", "Corporate Events"],
        },
    },
    "mascot-honey-bee": {
        "title": "Honey Bee",
        "description": "A busy little bee with a sweet smile.",
        "details": {
            "short_description": "A busy little bee with a sweet smile.",
            "full_description": "Our Honey Bee buzzes around the party, plays flower-to-flower games and shares a few fun facts about bees with curious children.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-little-astronaut": {
        "title": "Little Astronaut",
        "description": "An explorer ready for lift-off.",
        "details": {
            "short_description": "An explorer ready for lift-off.",
            "full_description": "The Little Astronaut prepares the children for a pretend rocket launch with countdowns, moon walks and a space photo session.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-friendly-dragon": {
        "title": "Friendly Dragon",
        "description": "A smiling dragon who never breathes fire.",
        "details": {
            "short_description": "A smiling dragon who never breathes fire.",
            "full_description": "Our Friendly Dragon flaps its wings to the music, plays tag with the children and protects the birthday treasure with a big grin.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-cowboy-sheriff": {
        "title": "Cowboy Sheriff",
        "description": "A sheriff from the wild west.",
        "details": {
            "short_description": "A sheriff from the wild west.",
            "full_description": "The Cowboy Sheriff rounds up the children for a line dance, hands out pretend sheriff badges and keeps the party in good order.",
            "suitable_for": ["Birthday Parties", "School Events", "Theme Parties"],
        },
    },
    "mascot-ninja-warrior": {
        "title": "Ninja Warrior",
        "description": "A quick and quiet ninja.",
        "details": {
            "short_description": "A quick and quiet ninja.",
            "full_description": "Our Ninja Warrior teaches a few slow-motion ninja moves, leads a sneaky obstacle game and poses for action photos with the guests.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-firefighter-hero": {
        "title": "Firefighter Hero",
        "description": "A hero who keeps everyone safe.",
        "details": {
            "short_description": "A hero who keeps everyone safe.",
            "full_description": "The Firefighter Hero runs a playful rescue drill, shares simple safety tips and lets the children join the brave firefighting team.",
            "suitable_for": ["Birthday Parties", "School Events", "Community Events"],
        },
    },
    "mascot-police-officer": {
        "title": "Police Officer",
        "description": "A friendly officer on patrol.",
        "details": {
            "short_description": "A friendly officer on patrol.",
            "full_description": "Our Police Officer hands out pretend badges, leads a traffic-light game and reminds the children about staying safe in a fun way.",
            "suitable_for": ["Birthday Parties", "School Events", "Community Events"],
        },
    },
    "mascot-panda-pal": {
        "title": "Panda Pal",
        "description": "A playful panda who loves bamboo.",
        "details": {
            "short_description": "A playful panda who loves bamboo.",
            "full_description": "The Panda Pal rolls, waves and dances with the children, then settles down for a gentle story and plenty of cuddly photos.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-pink-bunny": {
        "title": "Pink Bunny",
        "description": "A bouncy bunny with long ears.",
        "details": {
            "short_description": "A bouncy bunny with long ears.",
            "full_description": "Our Pink Bunny hops into the party with bunny-jump games, an egg-and-spoon race and lots of smiles for the youngest guests.",
            "suitable_for": ["Birthday Parties", "School Events", "Holiday Events"],
        },
    },
    "mascot-waddling-penguin": {
        "title": "Waddling Penguin",
        "description": "A penguin who loves the cold.",
        "details": {
            "short_description": "A penguin who loves the cold.",
            "full_description": "The Waddling Penguin leads a penguin-walk race, plays snowball games with soft balls and dances to winter songs.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-snowman-buddy": {
        "title": "Snowman Buddy",
        "description": "A jolly snowman who loves warm hugs.",
        "details": {
            "short_description": "A jolly snowman who loves warm hugs.",
            "full_description": "Our Snowman Buddy brings winter cheer to any season, plays freeze games with the children and poses for snowy photos.",
            "suitable_for": ["Birthday Parties", "School Events", "Holiday Events"],
        },
    },
    "mascot-santa-claus": {
        "title": "Santa Claus",
        "description": "The jolly gift-giver from the North Pole.",
        "details": {
            "short_description": "The jolly gift-giver from the North Pole.",
            "full_description": "Santa Claus visits with his big laugh, listens to every child's wish, hands out the gifts prepared by the parents and poses for family photos.",
            "suitable_for": ["Holiday Events", "School Events", "Corporate Events"],
        },
    },
    "mascot-christmas-elf": {
        "title": "Christmas Elf",
        "description": "Santa's cheerful little helper.",
        "details": {
            "short_description": "Santa's cheerful little helper.",
            "full_description": "The Christmas Elf brings holiday games, a quick gift-wrapping race and festive songs to school parties and end-of-year celebrations.",
            "suitable_for": ["Holiday Events", "School Events"],
        },
    },
    "mascot-gingerbread-man": {
        "title": "Gingerbread Man",
        "description": "A sweet cookie who loves to run.",
        "details": {
            "short_description": "A sweet cookie who loves to run.",
            "full_description": "Our Gingerbread Man challenges the children to catch him in a chasing game, then shares a festive dance before the cake is cut.",
            "suitable_for": ["Birthday Parties", "Holiday Events"],
        },
    },
    "mascot-race-car-driver": {
        "title": "Race Car Driver",
        "description": "A speedy champion of the track.",
        "details": {
            "short_description": "A speedy champion of the track.",
            "full_description": "The Race Car Driver sets up a pretend race with start flags, pit-stop games and a podium ceremony for every little racer.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-ballerina": {
        "title": "Ballerina",
        "description": "A graceful dancer on her tiptoes.",
        "details": {
            "short_description": "A graceful dancer on her tiptoes.",
            "full_description": "Our Ballerina teaches a short, simple dance routine, leads a twirling contest and performs a little show for the birthday child.",
            "suitable_for": ["Birthday Parties", "School Events", "Dance Recitals"],
        },
    },
    "mascot-circus-ringmaster": {
        "title": "Circus Ringmaster",
        "description": "The host of the greatest show.",
        "details": {
            "short_description": "The host of the greatest show.",
            "full_description": "The Circus Ringmaster turns the party into a circus with animal acts performed by the children, juggling tries and a grand finale.",
            "suitable_for": ["Birthday Parties", "School Events", "Corporate Events"],
        },
    },
    "mascot-monkey-explorer": {
        "title": "Monkey Explorer",
        "description": "A curious monkey from the jungle.",
        "details": {
            "short_description": "A curious monkey from the jungle.",
            "full_description": "Our Monkey Explorer swings into the party with jungle games, funny faces and a banana-relay race that children adore.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-happy-puppy": {
        "title": "Happy Puppy",
        "description": "A loyal puppy who loves to play.",
        "details": {
            "short_description": "A loyal puppy who loves to play.",
            "full_description": "The Happy Puppy plays fetch with soft balls, learns tricks from the children and wags along to the party music.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-kitty-cat": {
        "title": "Kitty Cat",
        "description": "A sweet kitten with a pink bow.",
        "details": {
            "short_description": "A sweet kitten with a pink bow.",
            "full_description": "Our Kitty Cat purrs, plays with ribbon toys and leads a gentle cat dance that the youngest guests can easily follow.",
            "suitable_for": ["Birthday Parties", "Baby Showers"],
        },
    },
    "mascot-butterfly-friend": {
        "title": "Butterfly Friend",
        "description": "A colourful butterfly with shimmering wings.",
        "details": {
            "short_description": "A colourful butterfly with shimmering wings.",
            "full_description": "The Butterfly Friend flutters around the garden or hall, plays catch-the-butterfly and helps children paint their own butterfly wings.",
            "suitable_for": ["Birthday Parties", "School Events", "Garden Parties"],
        },
    },
    "mascot-owl-professor": {
        "title": "Owl Professor",
        "description": "A wise owl who loves riddles.",
        "details": {
            "short_description": "A wise owl who loves riddles.",
            "full_description": "Our Owl Professor hosts a riddle quiz, reads a short story and hands out pretend diplomas to every clever guest.",
            "suitable_for": ["School Events", "Birthday Parties"],
        },
    },
    "mascot-shark-buddy": {
        "title": "Shark Buddy",
        "description": "A friendly shark with a big smile.",
        "details": {
            "short_description": "A friendly shark with a big smile.",
            "full_description": "The Shark Buddy swims into the party with an ocean dance, a fishing game and a playful chase around the room.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-good-witch": {
        "title": "Good Witch",
        "description": "A kind witch with a sparkling broom.",
        "details": {
            "short_description": "A kind witch with a sparkling broom.",
            "full_description": "Our Good Witch mixes a pretend potion of good wishes, plays broom races and casts a happy-birthday spell on the guest of honour.",
            "suitable_for": ["Birthday Parties", "Theme Parties"],
        },
    },
    "mascot-tall-giraffe": {
        "title": "Tall Giraffe",
        "description": "A gentle giraffe with a very long neck.",
        "details": {
            "short_description": "A gentle giraffe with a very long neck.",
            "full_description": "The Tall Giraffe towers over the party with a friendly smile, plays high-and-low games and is always a favourite in group photos.",
            "suitable_for": ["Birthday Parties", "School Events"],
        },
    },
    "mascot-cuddly-elephant": {
        "title": "Cuddly Elephant",
        "description": "A gentle elephant with big ears.",
        "details": {
            "short_description": "A gentle elephant with big ears.",
            "full_description": "Our Cuddly Elephant stomps to the music, plays trunk-and-tail games and gives warm hugs to every child at the party.",
            "suitable_for": ["Birthday Parties", "School Events", "Baby Showers"],
        },
    },
    "bouncer-jungle": {
        "title": "Jungle Bouncer",
        "description": "A jungle-themed bouncer with palm trees and happy animals, for parties in the garden or in a hall.",
    },
    "bouncer-pirate-ship": {
        "title": "Pirate Ship Bouncer",
        "description": "A bouncy pirate ship for little adventurers, with room to play and jump.",
    },
    "bouncer-castle": {
        "title": "Castle Bouncer",
        "description": "A classic bouncy castle with towers, just right for birthdays and school parties.",
    },
    "castle-redblue": {
        "title": "Red & Blue Castle",
        "description": "A red and blue bouncy castle, bright and eye-catching at any party.",
    },
    "castle-pink": {
        "title": "Pink Castle",
        "description": "A pink bouncy castle, a favourite for little princesses' parties.",
    },
    "castle-white": {
        "title": "White Castle",
        "description": "A white bouncy castle, elegant for weddings, engagements and special events.",
    },
    "enchanted-princess": {
        "title": "Enchanted Princess",
        "description": "A fairy-tale celebration with castle backdrops, royal thrones and sparkling pastel decor.",
        "details": {
            "age": "3-10 years",
            "duration": "4-6 hours",
            "capacity": "Up to 30 guests",
            "long_description": "Step into a fairy tale. Our Enchanted Princess theme turns any room or garden into a royal palace, with a castle backdrop, soft pastel drapes and a glittering throne for the birthday princess.\n\nEvery detail is styled to match: balloon arches in blush pink and gold, crowns and wands for the little guests, and a dessert table dressed like a royal banquet.\n\nOur team delivers, sets up and takes everything down again, so you can enjoy the celebration while the children enjoy their day at the palace.",
            "features": [
                "Castle backdrop with fairy lights",
                "Royal throne for the birthday child",
                "Pink and gold balloon arch",
                "Themed dessert table styling",
                "Crowns and wands for up to 30 guests",
                "Princess-themed table settings",
                "Delivery, setup and takedown included",
            ],
            "add_ons": [
                {"name": "Princess mascot visit (1 hour)", "price": "149.00"},
                {"name": "Face painting station", "price": "99.00"},
                {"name": "Bubble house (3 hours)", "price": "199.00"},
                {"name": "Custom birthday cake display", "price": "129.00"},
                {"name": "Royal photo booth with props", "price": "299.00"},
            ],
        },
    },
    "cosmic-adventure": {
        "title": "Cosmic Adventure",
        "description": "A journey through the stars with planets, rockets and glowing galaxy lights.",
        "details": {
            "age": "5-12 years",
            "duration": "4-6 hours",
            "capacity": "Up to 30 guests",
            "long_description": "Blast off into outer space. The Cosmic Adventure theme fills the venue with hanging planets, a rocket-launch backdrop and glowing galaxy lighting that makes every corner feel like a space station.\n\nChildren receive mission badges, explore a starry photo corner and gather around a dessert table styled as mission control.\n\nWe handle delivery, assembly and takedown, leaving you free to enjoy the countdown to the best birthday in the galaxy.",
            "features": [
                "Rocket-launch backdrop",
                "Hanging planets and star garlands",
                "Galaxy LED lighting",
                "Mission-control dessert table",
                "Astronaut badges for up to 30 guests",
                "Starry photo corner",
                "Space-themed table settings",
                "Delivery, setup and takedown included",
            ],
            "add_ons": [
                {"name": "Space Ranger mascot visit (1 hour)", "price": "149.00"},
                {"name": "Glow-in-the-dark party pack", "price": "99.00"},
                {"name": "Castle bouncer (3 hours)", "price": "249.00"},
                {"name": "Planetarium dome projection", "price": "299.00"},
            ],
        },
    },
    "jungle-safari": {
        "title": "Jungle Safari",
        "description": "A wild safari party with tropical leaves, friendly animals and explorer gear.",
        "details": {
            "age": "2-8 years",
            "duration": "4-6 hours",
            "capacity": "Up to 30 guests",
            "long_description": "Head out on safari without leaving home. Our Jungle Safari theme brings tropical leaves, friendly animal figures and an explorer's camp to your celebration.\n\nLittle adventurers get explorer hats and binoculars, follow animal tracks around the venue and gather at a dessert table dressed in green and gold.\n\nDelivery, setup and takedown are included, so the only thing you need to bring is your sense of adventure.",
            "features": [
                "Tropical leaf backdrop",
                "Jungle animal figures",
                "Green and gold balloon garland",
                "Explorer hats and binoculars for guests",
                "Safari dessert table styling",
                "Delivery, setup and takedown included",
            ],
            "add_ons": [
                {"name": "Jolly Lion mascot visit (1 hour)", "price": "149.00"},
                {"name": "Jungle bouncer (3 hours)", "price": "199.00"},
                {"name": "Animal face painting", "price": "99.00"},
                {"name": "Safari photo booth with props", "price": "299.00"},
            ],
        },
    },
}

BANNER_ITEMS = {
    "Dasma Magjike": "Magic Weddings",
    "Karriget Tiffany": "Tiffany Chairs",
    "Maskotat": "Mascots",
    "Pako për Syneti": "Circumcision Party Packages",
    "Shtëpi me Flluska": "Bubble House",
    "Kështjella Kërcyese": "Bouncy Castles",
    "Tavolina për Dasma": "Wedding Tables",
    "Dekorime Tematike": "Themed Decorations",
    "Pasqyra e Mirëseardhjes": "Welcome Mirror",
    "Tabelat e Mysafirëve": "Seating-Plan Boards",
    "Tavolina e Çiftit": "The Couple's Table",
    "Dekorimi i Sallës": "Hall Decoration",
    "Detajet e Vogla": "The Little Details",
    "Kështjellë e Kuqe dhe Blu": "Red and Blue Castle",
    "Kështjellë Rozë": "Pink Castle",
    "Kështjellë e Bardhë": "White Castle",
    "Anija e Piratëve": "Pirate Ship",
    "Flluska & Bouncer": "Bubble & Bouncer",
    "Ice Princess": "Ice Princess",
    "Space Ranger": "Space Ranger",
    "Friendly Dinosaur": "Friendly Dinosaur",
    "Pirate Captain": "Pirate Captain",
    "Festë Ditëlindjeje": "Birthday Party",
    "Festë Synetie": "Circumcision Party",
    "Tavolina të Bardha 60cm": "White Tables 60cm",
    "Tavolina të Bardha 80cm": "White Tables 80cm",
    "Tavolina të Zeza 60cm": "Black Tables 60cm",
    "Tavolina të Zeza 80cm": "Black Tables 80cm",
    "Mbulesa dhe Montim": "Tablecloths and Setup",
    "Dekorim me Balona": "Balloon Decorations",
    "Dekorim Dasme": "Wedding Decoration",
    "Kështjellë Kërcyese": "Bouncy Castle",
    "Festë në Oborr": "Garden Party",
    "Hyrja e Sallës": "Hall Entrance",
    "Event Kompanie": "Corporate Event",
    "Festë Shkollore": "School Event",
    "Dasmë": "Wedding",
    "Park Tematik": "Theme Park",
    "Dorëzimi": "Delivery",
    "Montimi": "Setup",
    "Fryrja": "Inflation",
    "Kërcyese Xhungle": "Jungle Bouncer",
    "Festë me Fëmijë": "Children's Party",
    "Shtëpi me Flluska 1": "Bubble House 1",
    "Shtëpi me Flluska 2": "Bubble House 2",
    "Shtëpi me Flluska 3": "Bubble House 3",
    "Shtëpi me Flluska 4": "Bubble House 4",
    "Shtëpi me Flluska 5": "Bubble House 5",
    "Shtëpi me Flluska 6": "Bubble House 6",
    "Shtëpi me Flluska 7": "Bubble House 7",
    "Shtëpi me Flluska 8": "Bubble House 8",
    "Jungle Bouncer": "Jungle Bouncer",
    "Pirate Ship Bouncer": "Pirate Ship Bouncer",
    "Castle Bouncer": "Castle Bouncer",
    "Red & Blue Castle": "Red & Blue Castle",
    "Pink Castle": "Pink Castle",
    "White Castle": "White Castle",
}

BANNER_ITEM_DESCRIPTIONS = {
    "Dekorim i plotë i dasmës me oferta për 100 dhe 200 persona.": "Complete wedding decoration, with offers for 100 and 200 guests.",
    "Karrige Tiffany me tavolina për vetëm 5€ për person.": "Tiffany chairs with tables for just €5 per person.",
    "Mbi 40 personazhe maskotash për ditëlindje dhe festa shkollore.": "Over 40 mascot characters for birthdays and school parties.",
    "Maskota, pikturim fytyre dhe lojëra për festën e synetisë.": "Mascots, face painting and games for a circumcision celebration.",
    "Shtëpi me flluska me 50 balona brenda, për 3 orë argëtim.": "A bubble house with 50 balloons inside, for 3 hours of fun.",
    "Kështjella kërcyese me dorëzim, montim dhe fryrje në vend.": "Bouncy castles, delivered, set up and inflated on site.",
    "Tavolina të bardha dhe të zeza 60cm ose 80cm, 7€ për tavolinë.": "White and black tables, 60cm or 80cm, €7 per table.",
    "Pasqyrë e dekoruar me emrat e çiftit në hyrje të sallës.": "A decorated mirror with the couple's names at the entrance of the hall.",
    "Tabela elegante me akomodimin e mysafirëve nëpër tavolina.": "Elegant boards that show every guest to their table.",
    "Dekorim me lule dhe drita për tavolinën kryesore.": "Flowers and lights for the head table.",
    "Karrige Tiffany që i japin sallës një pamje elegante.": "Tiffany chairs that give the hall an elegant look.",
    "Dekorim i plotë i sallës sipas ngjyrave që zgjidhni ju.": "Complete hall decoration in the colours you choose.",
    "Qirinj, lule dhe detaje që e bëjnë dasmën të paharrueshme.": "Candles, flowers and the little touches that make a wedding unforgettable.",
    "Shtëpi transparente me 50 balona brenda për fëmijët.": "A see-through house with 50 balloons inside for the children.",
    "Kështjellë kërcyese me ngjyra të gjalla për çdo festë.": "A bouncy castle in bright colours for any party.",
    "Kështjella rozë, e preferuara e princeshave të vogla.": "The pink castle, little princesses' favourite.",
    "Kështjellë e bardhë elegante për dasma dhe fejesa.": "An elegant white castle for weddings and engagements.",
    "Anije piratësh kërcyese për aventurierët e vegjël.": "A bouncy pirate ship for little adventurers.",
    "Shtëpi me flluska dhe kështjellë kërcyese në të njëjtën festë.": "A bubble house and a bouncy castle at the same party.",
    "Princesha e akullit që këndon dhe vallëzon me fëmijët.": "The ice princess who sings and dances with the children.",
    "Heroi i hapësirës me lojëra dhe numërime mbrapsht.": "The space hero, with games and countdowns.",
    "Dinosauri i butë që i do përqafimet.": "The gentle dinosaur who loves hugs.",
    "Kapiteni i piratëve me gjueti thesari për fëmijët.": "The pirate captain, with a treasure hunt for the children.",
    "Maskotat tona në një festë ditëlindjeje plot gëzim.": "Our mascots at a joyful birthday party.",
    "Maskota dhe aktivitete për festën e synetisë.": "Mascots and activities for a circumcision celebration.",
    "Tavolina të bardha me diametër 60cm për dasma dhe evente.": "White tables, 60cm in diameter, for weddings and events.",
    "Tavolina të bardha me diametër 80cm për më shumë hapësirë.": "White tables, 80cm in diameter, for more room.",
    "Tavolina të zeza me diametër 60cm me pamje moderne.": "Black tables, 60cm in diameter, with a modern look.",
    "Tavolina të zeza me diametër 80cm për evente elegante.": "Black tables, 80cm in diameter, for elegant events.",
    "Mbulesa, transport dhe montim i tavolinave në vendin e eventit.": "Tablecloths, transport and setup of the tables at your venue.",
    "Dekorime me balona që plotësojnë tavolinat e eventit tuaj.": "Balloon decorations that complete your event's tables.",
}
