//! What a generated show is about: one theme of its category, with the Apple
//! subcategory it files under, the words its name is made of and the topics its
//! description, episodes and transcripts talk about. A show drawn from one theme reads
//! true: "Garden Unfiltered" is about gardening, its episodes about composting and
//! raised beds, so a newcomer's first search finds shows that are about what it asks.

/// One theme of a top-level category.
#[derive(Debug)]
pub struct Theme {
    /// The top-level category's Apple display name.
    pub category: &'static str,
    /// The Apple subcategory its shows file under (none for a category without any).
    pub subcategory: Option<&'static str>,
    /// What the shows are about, as their descriptions say it ("gardening").
    pub name: &'static str,
    /// Words that make show names.
    pub title_words: &'static [&'static str],
    /// Topic terms and phrases for descriptions, episodes and transcripts.
    pub topics: &'static [&'static str],
}

macro_rules! theme {
    ($category:literal, $subcategory:expr, $name:literal, [$($word:literal),+ $(,)?], [$($topic:literal),+ $(,)?]) => {
        Theme {
            category: $category,
            subcategory: $subcategory,
            name: $name,
            title_words: &[$($word),+],
            topics: &[$($topic),+],
        }
    };
}

pub const THEMES: &[Theme] = &[
    // Arts
    theme!(
        "Arts",
        Some("Books"),
        "books",
        ["Page", "Ink", "Chapter", "Shelf", "Bookworm"],
        [
            "novel",
            "poetry",
            "literary fiction",
            "memoir",
            "book club",
            "manuscript",
            "publisher",
            "editor",
            "short story",
            "debut author"
        ]
    ),
    theme!(
        "Arts",
        Some("Design"),
        "design",
        ["Atelier", "Sketch", "Blueprint", "Studio", "Craft"],
        [
            "graphic design",
            "typography",
            "color theory",
            "interior design",
            "architecture",
            "product design",
            "logo",
            "design system",
            "furniture",
            "branding"
        ]
    ),
    theme!(
        "Arts",
        Some("Food"),
        "cooking",
        ["Kitchen", "Skillet", "Pantry", "Recipe", "Supper"],
        [
            "recipe",
            "sourdough",
            "fermentation",
            "pastry",
            "chef",
            "restaurant",
            "wine pairing",
            "home cooking",
            "knife skills",
            "spice blend"
        ]
    ),
    theme!(
        "Arts",
        Some("Performing Arts"),
        "theater",
        ["Stage", "Curtain", "Encore", "Spotlight", "Playhouse"],
        [
            "theater",
            "ballet",
            "opera",
            "musical",
            "rehearsal",
            "opening night",
            "costume design",
            "playwright",
            "dance company",
            "audition"
        ]
    ),
    theme!(
        "Arts",
        Some("Visual Arts"),
        "painting",
        ["Canvas", "Palette", "Gallery", "Brush", "Easel"],
        [
            "painting",
            "watercolor",
            "oil paint",
            "portrait",
            "sculpture",
            "gallery opening",
            "museum",
            "curator",
            "printmaking",
            "charcoal"
        ]
    ),
    // Business
    theme!(
        "Business",
        Some("Entrepreneurship"),
        "startups",
        ["Founder", "Startup", "Venture", "Pitch", "Launch"],
        [
            "startup",
            "seed round",
            "venture capital",
            "product market fit",
            "bootstrapping",
            "angel investor",
            "burn rate",
            "pitch deck",
            "cofounder",
            "first customers"
        ]
    ),
    theme!(
        "Business",
        Some("Investing"),
        "investing",
        ["Capital", "Equity", "Dividend", "Portfolio", "Compound"],
        [
            "stock market",
            "index fund",
            "dividend",
            "interest rates",
            "inflation",
            "valuation",
            "quarterly earnings",
            "real estate",
            "bond yields",
            "asset allocation"
        ]
    ),
    theme!(
        "Business",
        Some("Marketing"),
        "marketing",
        ["Market", "Brand", "Funnel", "Growth", "Audience"],
        [
            "brand strategy",
            "marketing funnel",
            "customer acquisition",
            "pricing strategy",
            "cold email",
            "sales pipeline",
            "email newsletter",
            "content marketing",
            "conversion rate",
            "advertising"
        ]
    ),
    theme!(
        "Business",
        Some("Management"),
        "leadership",
        ["Leader", "Boardroom", "Manager", "Team", "Culture"],
        [
            "leadership",
            "management",
            "hiring",
            "remote work",
            "board meeting",
            "negotiation",
            "company culture",
            "one on one",
            "performance review",
            "delegation"
        ]
    ),
    theme!(
        "Business",
        Some("Careers"),
        "personal finance",
        ["Profit", "Paycheck", "Hustle", "Wallet", "Budget"],
        [
            "personal finance",
            "side hustle",
            "retirement account",
            "budgeting",
            "salary negotiation",
            "emergency fund",
            "credit score",
            "debt payoff",
            "career change",
            "frugal living"
        ]
    ),
    // Comedy
    theme!(
        "Comedy",
        Some("Stand-Up"),
        "stand-up comedy",
        ["Punchline", "Laugh", "Jokes", "Mic", "Roast"],
        [
            "stand-up set",
            "open mic",
            "heckler",
            "comedy club",
            "crowd work",
            "one-liner",
            "comedy special",
            "tour diary",
            "green room",
            "late night"
        ]
    ),
    theme!(
        "Comedy",
        Some("Improv"),
        "improv",
        ["Riff", "Scene", "Chaos", "Goof", "Nonsense"],
        [
            "improv scene",
            "sketch",
            "impressions",
            "yes and",
            "character work",
            "improv class",
            "improv troupe",
            "warm up game",
            "scene partner",
            "callback"
        ]
    ),
    theme!(
        "Comedy",
        Some("Comedy Interviews"),
        "funny stories",
        ["Banter", "Hangout", "Shenanigans", "Giggle", "Couch"],
        [
            "embarrassing story",
            "awkward date",
            "prank",
            "family reunion",
            "bad haircut",
            "group chat",
            "weird dream",
            "dating app",
            "wedding toast",
            "childhood memory"
        ]
    ),
    // Education
    theme!(
        "Education",
        Some("Language Learning"),
        "language learning",
        ["Lingo", "Phrase", "Fluent", "Accent", "Lesson"],
        [
            "vocabulary",
            "grammar",
            "pronunciation",
            "language exchange",
            "flashcards",
            "spaced repetition",
            "immersion",
            "verb conjugation",
            "listening practice",
            "phrasebook"
        ]
    ),
    theme!(
        "Education",
        Some("Self-Improvement"),
        "productivity",
        ["Habits", "Mindset", "Focus", "Mastery", "Routine"],
        [
            "productivity",
            "time management",
            "morning routine",
            "goal setting",
            "habit formation",
            "deep work",
            "procrastination",
            "motivation",
            "growth mindset",
            "journaling"
        ]
    ),
    theme!(
        "Education",
        Some("How To"),
        "study skills",
        ["Study", "Classroom", "Notes", "Exam", "Scholar"],
        [
            "study habits",
            "memory technique",
            "note taking",
            "exam preparation",
            "reading comprehension",
            "critical thinking",
            "homework",
            "university admissions",
            "scholarship",
            "tutoring"
        ]
    ),
    theme!(
        "Education",
        Some("Courses"),
        "teaching",
        ["Teacher", "Lecture", "Academy", "Lesson", "Chalkboard"],
        [
            "lesson plan",
            "curriculum",
            "classroom management",
            "student engagement",
            "teacher training",
            "special education",
            "homeschooling",
            "online course",
            "grading",
            "mentorship"
        ]
    ),
    // Fiction
    theme!(
        "Fiction",
        Some("Science Fiction"),
        "science fiction",
        ["Station", "Signal", "Voyage", "Frontier", "Orbit"],
        [
            "starship",
            "colony",
            "android",
            "time travel",
            "orbital station",
            "parallel universe",
            "alien",
            "artificial intelligence",
            "cyberpunk city",
            "last survivor"
        ]
    ),
    theme!(
        "Fiction",
        Some("Drama"),
        "mystery",
        ["Mystery", "Shadows", "Whispers", "Archive", "Secrets"],
        [
            "detective",
            "haunted house",
            "mysterious letter",
            "secret society",
            "inheritance",
            "abandoned hospital",
            "small town",
            "memory loss",
            "witness",
            "masquerade"
        ]
    ),
    theme!(
        "Fiction",
        Some("Comedy Fiction"),
        "fantasy",
        ["Tales", "Saga", "Legend", "Kingdom", "Quest"],
        [
            "kingdom",
            "dragon",
            "prophecy",
            "forbidden forest",
            "cursed artifact",
            "rebellion",
            "treasure map",
            "expedition",
            "shipwreck",
            "wizard"
        ]
    ),
    // Government
    theme!(
        "Government",
        None,
        "local government",
        ["Council", "Civic", "Town", "Commons", "Hall"],
        [
            "city council",
            "zoning",
            "public comment",
            "town hall",
            "school board",
            "county commission",
            "permit process",
            "transit authority",
            "water utility",
            "police oversight"
        ]
    ),
    theme!(
        "Government",
        None,
        "public policy",
        ["Policy", "Capitol", "Statehouse", "Charter", "Docket"],
        [
            "legislation",
            "committee hearing",
            "housing policy",
            "tax policy",
            "regulation",
            "state legislature",
            "federal agency",
            "court ruling",
            "constitution",
            "appropriations"
        ]
    ),
    theme!(
        "Government",
        None,
        "elections",
        ["Ballot", "Vote", "Precinct", "Campaign", "Poll"],
        [
            "ballot measure",
            "voter registration",
            "redistricting",
            "census",
            "election day",
            "campaign finance",
            "polling place",
            "turnout",
            "primary election",
            "absentee ballot"
        ]
    ),
    // Health & Fitness
    theme!(
        "Health & Fitness",
        Some("Fitness"),
        "fitness",
        ["Strong", "Fit", "Pulse", "Lift", "Sweat"],
        [
            "strength training",
            "cardio",
            "marathon training",
            "mobility",
            "personal trainer",
            "body composition",
            "yoga",
            "pilates",
            "injury recovery",
            "workout plan"
        ]
    ),
    theme!(
        "Health & Fitness",
        Some("Nutrition"),
        "nutrition",
        ["Healthy", "Plate", "Fuel", "Nourish", "Harvest"],
        [
            "protein intake",
            "intermittent fasting",
            "gut health",
            "microbiome",
            "meal prep",
            "plant based diet",
            "nutrition label",
            "blood sugar",
            "hydration",
            "supplements"
        ]
    ),
    theme!(
        "Health & Fitness",
        Some("Mental Health"),
        "mental health",
        ["Mind", "Balance", "Calm", "Heal", "Thrive"],
        [
            "mental health",
            "anxiety",
            "depression",
            "therapy",
            "burnout",
            "stress management",
            "mindfulness",
            "self care",
            "sleep hygiene",
            "breathwork"
        ]
    ),
    theme!(
        "Health & Fitness",
        Some("Medicine"),
        "medicine",
        ["Vital", "Clinic", "Doctor", "Body", "Remedy"],
        [
            "cholesterol",
            "heart rate variability",
            "hormones",
            "menopause",
            "inflammation",
            "chronic pain",
            "immune system",
            "longevity",
            "vitamin d",
            "physical therapy"
        ]
    ),
    // History
    theme!(
        "History",
        None,
        "ancient history",
        ["Ancient", "Empire", "Relic", "Epoch", "Dynasty"],
        [
            "roman empire",
            "ancient egypt",
            "ancient greece",
            "pharaoh",
            "archaeology",
            "excavation",
            "lost city",
            "legion",
            "emperor",
            "byzantine"
        ]
    ),
    theme!(
        "History",
        None,
        "medieval history",
        ["Castle", "Crown", "Chronicle", "Realm", "Knight"],
        [
            "medieval castle",
            "crusades",
            "vikings",
            "samurai",
            "monarchy",
            "cathedral",
            "siege",
            "plague",
            "silk road",
            "ottoman empire"
        ]
    ),
    theme!(
        "History",
        None,
        "modern history",
        ["Century", "Revolution", "Legacy", "Archive", "Past"],
        [
            "world war",
            "cold war",
            "civil war",
            "industrial revolution",
            "independence movement",
            "spy network",
            "propaganda",
            "assassination",
            "treaty",
            "colonial era"
        ]
    ),
    // Kids & Family
    theme!(
        "Kids & Family",
        Some("Parenting"),
        "parenting",
        ["Family", "Parents", "Nest", "Home", "Village"],
        [
            "toddler",
            "sleep training",
            "potty training",
            "screen time",
            "sibling rivalry",
            "tantrum",
            "teenager",
            "co-parenting",
            "breastfeeding",
            "allowance"
        ]
    ),
    theme!(
        "Kids & Family",
        Some("Stories for Kids"),
        "bedtime stories",
        ["Bedtime", "Storytime", "Wonder", "Little", "Dreamy"],
        [
            "bedtime story",
            "fairy tale",
            "picture book",
            "reading aloud",
            "dragon story",
            "space adventure",
            "talking animals",
            "magic forest",
            "brave princess",
            "pirate ship"
        ]
    ),
    theme!(
        "Kids & Family",
        Some("Pets & Animals"),
        "pets",
        ["Puppy", "Paws", "Whiskers", "Critter", "Tails"],
        [
            "puppy training",
            "cat behavior",
            "pet hamster",
            "aquarium",
            "dog walking",
            "vet visit",
            "adoption",
            "bird cage",
            "pet food",
            "litter box"
        ]
    ),
    theme!(
        "Kids & Family",
        Some("Education for Kids"),
        "science for kids",
        ["Curious", "Kids", "Explorers", "Sprouts", "Playtime"],
        [
            "science experiment",
            "dinosaur",
            "nature walk",
            "riddles",
            "spelling bee",
            "craft project",
            "board game",
            "volcano model",
            "solar system",
            "bug hunt"
        ]
    ),
    // Leisure
    theme!(
        "Leisure",
        Some("Home & Garden"),
        "gardening",
        ["Garden", "Seedling", "Greenhouse", "Bloom", "Trowel"],
        [
            "gardening",
            "vegetable garden",
            "composting",
            "houseplants",
            "raised beds",
            "seed starting",
            "pruning",
            "soil health",
            "perennials",
            "beekeeping"
        ]
    ),
    theme!(
        "Leisure",
        Some("Video Games"),
        "video games",
        ["Pixel", "Player", "Loot", "Patch", "Quest"],
        [
            "video game",
            "speedrun",
            "console",
            "esports",
            "game review",
            "indie game",
            "retro gaming",
            "boss fight",
            "open world",
            "patch notes"
        ]
    ),
    theme!(
        "Leisure",
        Some("Automotive"),
        "cars",
        ["Garage", "Throttle", "Piston", "Horsepower", "Torque"],
        [
            "car restoration",
            "engine swap",
            "electric vehicle",
            "track day",
            "oil change",
            "classic car",
            "car auction",
            "road trip",
            "detailing",
            "turbocharger"
        ]
    ),
    theme!(
        "Leisure",
        Some("Crafts"),
        "crafts",
        ["Workshop", "Stitch", "Yarn", "Maker", "Handmade"],
        [
            "knitting",
            "woodworking",
            "quilting",
            "sewing pattern",
            "3d printing",
            "pottery wheel",
            "embroidery",
            "leather craft",
            "model trains",
            "candle making"
        ]
    ),
    theme!(
        "Leisure",
        Some("Games"),
        "board games",
        ["Dice", "Meeple", "Tabletop", "Gambit", "Weekend"],
        [
            "board game",
            "tabletop",
            "dungeon master",
            "card game",
            "chess opening",
            "puzzle",
            "game night",
            "deck building",
            "miniatures",
            "strategy game"
        ]
    ),
    theme!(
        "Leisure",
        Some("Aviation"),
        "aviation",
        ["Runway", "Hangar", "Cockpit", "Altitude", "Propeller"],
        [
            "pilot license",
            "flight simulator",
            "private pilot",
            "air traffic control",
            "airshow",
            "cessna",
            "navigation",
            "crosswind landing",
            "drone",
            "jet engine"
        ]
    ),
    // Music
    theme!(
        "Music",
        Some("Music Commentary"),
        "album reviews",
        ["Vinyl", "Track", "Mixtape", "Needle", "Spin"],
        [
            "album review",
            "debut single",
            "greatest hits",
            "b-side",
            "music video",
            "record label",
            "vinyl pressing",
            "streaming royalties",
            "festival lineup",
            "music critic"
        ]
    ),
    theme!(
        "Music",
        Some("Music Interviews"),
        "songwriting",
        ["Chorus", "Melody", "Lyric", "Hook", "Verse"],
        [
            "songwriting",
            "chord progression",
            "lyrics",
            "music producer",
            "recording studio",
            "mixing",
            "mastering",
            "sampling",
            "remix",
            "music theory"
        ]
    ),
    theme!(
        "Music",
        Some("Music History"),
        "jazz",
        ["Groove", "Rhythm", "Bassline", "Swing", "Encore"],
        [
            "jazz standards",
            "blues",
            "soul",
            "bebop",
            "big band",
            "saxophone",
            "improvisation",
            "jam session",
            "jazz club",
            "trumpet"
        ]
    ),
    theme!(
        "Music",
        Some("Music History"),
        "classical music",
        ["Symphony", "Sonata", "Overture", "Concerto", "Score"],
        [
            "classical composer",
            "orchestra",
            "opera singer",
            "piano lesson",
            "film score",
            "conductor",
            "string quartet",
            "concert hall",
            "baroque",
            "symphony"
        ]
    ),
    // News
    theme!(
        "News",
        Some("Politics"),
        "politics",
        ["Briefing", "Dispatch", "Capitol", "Desk", "Ballot"],
        [
            "election",
            "congress",
            "supreme court",
            "campaign trail",
            "debate",
            "polling",
            "legislation",
            "foreign policy",
            "prime minister",
            "parliament"
        ]
    ),
    theme!(
        "News",
        Some("Business News"),
        "the economy",
        ["Report", "Ticker", "Wire", "Markets", "Bulletin"],
        [
            "inflation report",
            "jobs report",
            "central bank",
            "stock market",
            "housing market",
            "trade war",
            "tariffs",
            "oil prices",
            "budget deficit",
            "tech layoffs"
        ]
    ),
    theme!(
        "News",
        Some("Daily News"),
        "world news",
        ["Daily", "Headlines", "Morning", "Roundup", "Update"],
        [
            "breaking news",
            "ceasefire",
            "diplomacy",
            "sanctions",
            "climate summit",
            "wildfire",
            "hurricane",
            "earthquake",
            "protest",
            "immigration"
        ]
    ),
    // Religion & Spirituality
    theme!(
        "Religion & Spirituality",
        Some("Christianity"),
        "christian faith",
        ["Grace", "Sermon", "Gospel", "Faith", "Word"],
        [
            "sermon",
            "scripture",
            "gospel",
            "bible study",
            "parable",
            "worship",
            "church community",
            "pastor",
            "easter",
            "discipleship"
        ]
    ),
    theme!(
        "Religion & Spirituality",
        Some("Buddhism"),
        "buddhism",
        ["Dharma", "Path", "Lotus", "Stillness", "Temple"],
        [
            "meditation",
            "mindfulness",
            "dharma",
            "karma",
            "monastery",
            "retreat",
            "compassion",
            "impermanence",
            "sangha",
            "zen"
        ]
    ),
    theme!(
        "Religion & Spirituality",
        Some("Judaism"),
        "judaism",
        ["Torah", "Shabbat", "Covenant", "Tradition", "Light"],
        [
            "torah",
            "talmud",
            "sabbath",
            "passover",
            "synagogue",
            "rabbi",
            "psalms",
            "prophet",
            "hebrew",
            "high holidays"
        ]
    ),
    theme!(
        "Religion & Spirituality",
        Some("Spirituality"),
        "spirituality",
        ["Spirit", "Soul", "Hope", "Sacred", "Prayer"],
        [
            "spiritual growth",
            "gratitude",
            "prayer",
            "pilgrimage",
            "forgiveness",
            "blessing",
            "theology",
            "devotion",
            "purpose",
            "inner peace"
        ]
    ),
    // Science
    theme!(
        "Science",
        Some("Astronomy"),
        "astronomy",
        ["Cosmos", "Orbit", "Nebula", "Starlight", "Telescope"],
        [
            "astronomy",
            "black hole",
            "dark matter",
            "telescope",
            "exoplanet",
            "mars rover",
            "solar flare",
            "gravitational waves",
            "galaxy",
            "supernova"
        ]
    ),
    theme!(
        "Science",
        Some("Physics"),
        "physics",
        ["Quantum", "Particle", "Theory", "Field", "Entropy"],
        [
            "quantum mechanics",
            "particle physics",
            "relativity",
            "superconductor",
            "thermodynamics",
            "string theory",
            "particle accelerator",
            "electromagnetism",
            "entropy",
            "higgs boson"
        ]
    ),
    theme!(
        "Science",
        Some("Life Sciences"),
        "biology",
        ["Lab", "Cell", "Genome", "Discovery", "Evidence"],
        [
            "genetics",
            "crispr",
            "evolution",
            "neuroscience",
            "microbiology",
            "vaccine",
            "protein folding",
            "clinical trial",
            "stem cells",
            "immune response"
        ]
    ),
    theme!(
        "Science",
        Some("Nature"),
        "nature",
        ["Nature", "Wild", "Canopy", "Meadow", "Tide"],
        [
            "biodiversity",
            "ecosystem",
            "coral reef",
            "migration",
            "photosynthesis",
            "rainforest",
            "wildlife",
            "bird song",
            "pollinators",
            "wetlands"
        ]
    ),
    theme!(
        "Science",
        Some("Earth Sciences"),
        "climate science",
        ["Element", "Horizon", "Ice", "Atmosphere", "Core"],
        [
            "climate model",
            "plate tectonics",
            "volcano",
            "ocean currents",
            "glacier",
            "carbon cycle",
            "sea level",
            "weather system",
            "fossil record",
            "earthquake"
        ]
    ),
    // Society & Culture
    theme!(
        "Society & Culture",
        Some("Relationships"),
        "relationships",
        ["Hearts", "Table", "Together", "Conversations", "Love"],
        [
            "relationships",
            "dating",
            "marriage",
            "friendship",
            "loneliness",
            "breakups",
            "communication",
            "trust",
            "commitment",
            "family ties"
        ]
    ),
    theme!(
        "Society & Culture",
        Some("Philosophy"),
        "philosophy",
        ["Thinkers", "Reason", "Question", "Socratic", "Ideas"],
        [
            "philosophy",
            "ethics",
            "stoicism",
            "existentialism",
            "free will",
            "meaning of life",
            "moral dilemma",
            "logic",
            "consciousness",
            "virtue"
        ]
    ),
    theme!(
        "Society & Culture",
        Some("Places & Travel"),
        "travel",
        ["Journey", "Passport", "Compass", "Roads", "Wander"],
        [
            "travel diary",
            "backpacking",
            "expat life",
            "city guide",
            "local culture",
            "street food",
            "train travel",
            "hidden gems",
            "travel tips",
            "road trip"
        ]
    ),
    theme!(
        "Society & Culture",
        Some("Personal Journals"),
        "personal stories",
        ["Stories", "Voices", "Life", "Roots", "Human"],
        [
            "storytelling",
            "grief",
            "coming of age",
            "nostalgia",
            "personal growth",
            "first person account",
            "identity",
            "motherhood",
            "happiness",
            "oral history"
        ]
    ),
    // Sports
    theme!(
        "Sports",
        Some("Soccer"),
        "soccer",
        ["Pitch", "Kickoff", "Goal", "Derby", "Terrace"],
        [
            "premier league",
            "champions league",
            "world cup",
            "transfer window",
            "penalty kick",
            "hat trick",
            "soccer tactics",
            "goalkeeper",
            "derby day",
            "relegation"
        ]
    ),
    theme!(
        "Sports",
        Some("Basketball"),
        "basketball",
        ["Hoops", "Court", "Rebound", "Buzzer", "Dunk"],
        [
            "point guard",
            "playoffs",
            "draft pick",
            "three pointer",
            "trade deadline",
            "free agency",
            "salary cap",
            "buzzer beater",
            "pick and roll",
            "rookie"
        ]
    ),
    theme!(
        "Sports",
        Some("Baseball"),
        "baseball",
        ["Dugout", "Diamond", "Bullpen", "Inning", "Bench"],
        [
            "pitcher",
            "home run",
            "batting average",
            "bullpen",
            "spring training",
            "world series",
            "stolen base",
            "strikeout",
            "minor leagues",
            "trade deadline"
        ]
    ),
    theme!(
        "Sports",
        Some("Running"),
        "running",
        ["Stride", "Pace", "Miles", "Finish", "Trail"],
        [
            "marathon",
            "personal best",
            "trail running",
            "running shoes",
            "interval training",
            "race day",
            "ultramarathon",
            "tempo run",
            "running form",
            "5k"
        ]
    ),
    theme!(
        "Sports",
        Some("Fantasy Sports"),
        "fantasy football",
        ["Draft", "Huddle", "Playbook", "Sideline", "Scoreboard"],
        [
            "fantasy lineup",
            "waiver wire",
            "quarterback",
            "injury report",
            "sleeper pick",
            "trade advice",
            "start or sit",
            "draft strategy",
            "rankings",
            "bye week"
        ]
    ),
    // Technology
    theme!(
        "Technology",
        None,
        "programming",
        ["Code", "Compile", "Stack", "Kernel", "Binary"],
        [
            "rust programming",
            "python",
            "javascript framework",
            "open source",
            "compiler",
            "code review",
            "technical debt",
            "developer tools",
            "api design",
            "software architecture"
        ]
    ),
    theme!(
        "Technology",
        None,
        "artificial intelligence",
        ["Neural", "Tensor", "Model", "Signal", "Circuit"],
        [
            "machine learning",
            "large language model",
            "neural network",
            "artificial intelligence",
            "robotics",
            "self driving car",
            "computer vision",
            "training data",
            "ai safety",
            "chatbot"
        ]
    ),
    theme!(
        "Technology",
        None,
        "cybersecurity",
        ["Cipher", "Firewall", "Protocol", "Breach", "Shield"],
        [
            "cybersecurity",
            "encryption",
            "zero day",
            "data breach",
            "privacy",
            "ransomware",
            "phishing",
            "password manager",
            "penetration testing",
            "incident response"
        ]
    ),
    theme!(
        "Technology",
        None,
        "cloud computing",
        ["Cloud", "Devops", "Cluster", "Byte", "Uptime"],
        [
            "cloud computing",
            "kubernetes",
            "serverless",
            "database",
            "microservices",
            "distributed systems",
            "observability",
            "latency",
            "search engine",
            "infrastructure as code"
        ]
    ),
    theme!(
        "Technology",
        None,
        "gadgets",
        ["Gadget", "Pixel", "Unboxed", "Device", "Circuit"],
        [
            "smartphone",
            "gadget review",
            "virtual reality",
            "smartwatch",
            "laptop",
            "wireless earbuds",
            "operating system",
            "mobile app",
            "semiconductor",
            "smart home"
        ]
    ),
    // True Crime
    theme!(
        "True Crime",
        None,
        "cold cases",
        ["Cold", "Unsolved", "Evidence", "Case", "Files"],
        [
            "cold case",
            "unsolved mystery",
            "dna testing",
            "forensic evidence",
            "missing person",
            "disappearance",
            "homicide detective",
            "crime scene",
            "autopsy",
            "timeline"
        ]
    ),
    theme!(
        "True Crime",
        None,
        "courtroom trials",
        ["Verdict", "Witness", "Jury", "Docket", "Gavel"],
        [
            "courtroom",
            "jury",
            "verdict",
            "prosecutor",
            "defense attorney",
            "wrongful conviction",
            "appeal",
            "parole hearing",
            "confession",
            "eyewitness"
        ]
    ),
    theme!(
        "True Crime",
        None,
        "fraud and scams",
        ["Con", "Swindle", "Motive", "Alibi", "Dark"],
        [
            "fraud",
            "con artist",
            "ponzi scheme",
            "identity theft",
            "heist",
            "organized crime",
            "embezzlement",
            "cult",
            "ransom",
            "private investigator"
        ]
    ),
    // TV & Film
    theme!(
        "TV & Film",
        Some("Film Reviews"),
        "movie reviews",
        ["Reel", "Cinema", "Popcorn", "Marquee", "Frame"],
        [
            "critic review",
            "box office",
            "indie film",
            "horror movie",
            "romantic comedy",
            "superhero movie",
            "film festival",
            "oscar race",
            "cult classic",
            "director's cut"
        ]
    ),
    theme!(
        "TV & Film",
        Some("TV Reviews"),
        "tv shows",
        ["Binge", "Screen", "Rewatch", "Premiere", "Remote"],
        [
            "season finale",
            "pilot episode",
            "streaming service",
            "prestige drama",
            "sitcom",
            "reality tv",
            "miniseries",
            "showrunner",
            "character arc",
            "plot twist"
        ]
    ),
    theme!(
        "TV & Film",
        Some("Film History"),
        "film history",
        ["Credits", "Director", "Silver", "Projector", "Classic"],
        [
            "film noir",
            "western",
            "silent film",
            "cinematography",
            "film score",
            "screenplay",
            "studio system",
            "golden age",
            "auteur",
            "black and white"
        ]
    ),
];

/// The themes of a category (by its Apple display name).
pub fn themes_of(category: &str) -> Vec<&'static Theme> {
    THEMES
        .iter()
        .filter(|theme| theme.category == category)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::vocab::{CATEGORIES, category_by_name};

    #[test]
    fn every_category_has_themes_filed_under_its_own_subcategories() {
        for category in CATEGORIES {
            let themes = themes_of(category.name);
            assert!(
                themes.len() >= 3,
                "{} has {} themes",
                category.name,
                themes.len()
            );
            for theme in themes {
                match theme.subcategory {
                    Some(subcategory) => assert!(
                        category.subcategories.contains(&subcategory),
                        "{subcategory} is not a subcategory of {}",
                        category.name
                    ),
                    None => assert!(category.subcategories.is_empty(), "{}", theme.name),
                }
            }
        }
        for theme in THEMES {
            assert!(
                category_by_name(theme.category).is_some(),
                "{}",
                theme.category
            );
            assert!(
                theme.topics.len() >= 10 && theme.title_words.len() >= 5,
                "{}",
                theme.name
            );
        }
    }

    #[test]
    fn theme_names_are_distinct() {
        let mut names: Vec<&str> = THEMES.iter().map(|theme| theme.name).collect();
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count);
    }
}
