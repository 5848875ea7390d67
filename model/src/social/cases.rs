//! Table-driven tests: real-world link shapes per platform, most of them taken
//! from the pages and feeds of the test corpus, accepted and rejected.

use super::*;
use SocialKind::*;
use SocialUrlProblem::*;

/// (link, platform, expected handle)
#[rustfmt::skip]
const ACCEPTED: &[(&str, SocialKind, &str)] = &[
    // Twitter / X
    ("https://twitter.com/daraobriain", Twitter, "daraobriain"),
    ("http://twitter.com/NNOCuba", Twitter, "nnocuba"),
    ("https://mobile.twitter.com/MPMaterials", Twitter, "mpmaterials"),
    ("https://www.twitter.com/ezraklein", Twitter, "ezraklein"),
    ("https://twitter.com/carlyfindlay/", Twitter, "carlyfindlay"),
    ("https://twitter.com/5isyphus55", Twitter, "5isyphus55"),
    ("https://twitter.com/ALLIN_STATS", Twitter, "allin_stats"),
    ("https://x.com/weeklyshowpod", Twitter, "weeklyshowpod"),
    ("https://x.com/RestIsPolitics", Twitter, "restispolitics"),
    ("https://twitter.com/jamil_qureshi?lang=en", Twitter, "jamil_qureshi"),
    ("twitter.com/chamath", Twitter, "chamath"),
    ("https://x.com/npr/with_replies", Twitter, "npr"),
    // Browsers read a backslash in an http path as a slash.
    ("https://twitter.com/nahum\\", Twitter, "nahum"),
    ("https://twitter.com/npr#top", Twitter, "npr"),
    // Instagram
    ("https://www.instagram.com/msrachelstevens", Instagram, "msrachelstevens"),
    ("https://instagram.com/taramann/", Instagram, "taramann"),
    ("https://www.instagram.com/jeremyjenson/?hl=en", Instagram, "jeremyjenson"),
    ("http://instagram.com/cap", Instagram, "cap"),
    ("https://www.instagram.com/allira.potter/?hl=en", Instagram, "allira.potter"),
    ("https://www.instagram.com/nomadic_revery/", Instagram, "nomadic_revery"),
    ("https://www.instagram.com/0day", Instagram, "0day"),
    ("https://instagram.com/EvelynMok", Instagram, "evelynmok"),
    ("https://instagram.com/lairdsuperfood?igshid=NGVhN2U2NjQ0Yg%3D%3D&utm_source=qr", Instagram, "lairdsuperfood"),
    ("http://www.instagram.com/tim.spector/", Instagram, "tim.spector"),
    ("https://www.instagram.com/_u/hubermanlab", Instagram, "hubermanlab"),
    ("https://www.instagram.com/hubermanlab/reels/", Instagram, "hubermanlab"),
    ("instagr.am/zoe", Instagram, "zoe"),
    ("https://www.youtube.com/redirect?redir_token=zz&q=https%3A%2F%2Fwww.instagram.com%2Fhealthypeach", Instagram, "healthypeach"),
    // Threads
    ("https://www.threads.net/@hubermanlab", Threads, "hubermanlab"),
    ("https://threads.net/@zuck/", Threads, "zuck"),
    ("https://www.threads.com/@nasa", Threads, "nasa"),
    ("https://www.threads.net/@mosseri/replies", Threads, "mosseri"),
    // TikTok
    ("https://www.tiktok.com/@weneedtotalkpod/", Tiktok, "weneedtotalkpod"),
    ("https://tiktok.com/@calingeorgescuoficial", Tiktok, "calingeorgescuoficial"),
    ("https://www.tiktok.com/@inheritedthepod?is_from_webapp=1&sender_device=pc", Tiktok, "inheritedthepod"),
    ("https://www.tiktok.com/@diegoruzzarin?lang=en", Tiktok, "diegoruzzarin"),
    ("http://www.tiktok.com/@saraheturney", Tiktok, "saraheturney"),
    ("https://m.tiktok.com/@greg.j.stoker", Tiktok, "greg.j.stoker"),
    // YouTube
    ("http://www.youtube.com/@5magazine", Youtube, "5magazine"),
    ("https://www.youtube.com/@BadEmpanadaLive", Youtube, "badempanadalive"),
    ("https://youtube.com/@LairdSuperfood?si=rjEDqFoHVJU01BQH", Youtube, "lairdsuperfood"),
    ("https://m.youtube.com/@KevinShipp1", Youtube, "kevinshipp1"),
    ("https://www.youtube.com/@fearnecotton/playlists", Youtube, "fearnecotton"),
    ("https://www.youtube.com/@Agit_Prop", Youtube, "agit_prop"),
    ("https://www.youtube.com/channel/UCUi00Bia46ldMzwEqniEZRQ", Youtube, "UCUi00Bia46ldMzwEqniEZRQ"),
    ("https://www.youtube.com/channel/UCUi00Bia46ldMzwEqniEZRQ/videos", Youtube, "UCUi00Bia46ldMzwEqniEZRQ"),
    ("https://www.youtube.com/c/RichardDWolff", Youtube, "richarddwolff"),
    ("https://www.youtube.com/user/TheDailyShow", Youtube, "thedailyshow"),
    ("https://www.youtube.com/bbrettcooper", Youtube, "bbrettcooper"),
    ("https://www.youtube.com/@TheRestIsEntertainment/featured", Youtube, "therestisentertainment"),
    // LinkedIn
    ("https://www.linkedin.com/in/drbradklontz/", Linkedin, "drbradklontz"),
    ("https://www.linkedin.com/in/brucedaisley", Linkedin, "brucedaisley"),
    ("https://www.linkedin.com/company/allinpod", Linkedin, "allinpod"),
    ("https://www.linkedin.com/in/tim-sheehy-a2362678/", Linkedin, "tim-sheehy-a2362678"),
    ("https://www.linkedin.com/in/alexbraunstein/?utm_source=podnews.net&utm_medium=rss", Linkedin, "alexbraunstein"),
    ("https://www.linkedin.com/company/transistor-fm/", Linkedin, "transistor-fm"),
    ("https://www.linkedin.com/in/jamil-qureshi-494661a/?originalSubdomain=uk", Linkedin, "jamil-qureshi-494661a"),
    ("https://uk.linkedin.com/in/some-person", Linkedin, "some-person"),
    ("https://de.linkedin.com/company/podigee", Linkedin, "podigee"),
    ("https://www.linkedin.com/in/andrew-huberman/en", Linkedin, "andrew-huberman"),
    ("https://www.linkedin.com/company/npr/about/", Linkedin, "npr"),
    // Facebook
    ("https://www.facebook.com/MegynKelly", Facebook, "megynkelly"),
    ("https://www.facebook.com/4biddenKnowledge", Facebook, "4biddenknowledge"),
    ("http://facebook.com/myfavoritemurder", Facebook, "myfavoritemurder"),
    ("https://www.facebook.com/blakenicole.cook", Facebook, "blakenicole.cook"),
    ("https://www.facebook.com/FindaCheka/", Facebook, "findacheka"),
    ("https://www.facebook.com/amelia.grey.5", Facebook, "amelia.grey.5"),
    ("https://facebook.com/ytcracker", Facebook, "ytcracker"),
    ("https://www.facebook.com/profile.php?id=100001526653842", Facebook, "100001526653842"),
    ("https://m.facebook.com/profile.php?id=1000015266538421&ref=bookmarks", Facebook, "1000015266538421"),
    ("https://www.facebook.com/people/Jane-Doe/100012345678901/", Facebook, "100012345678901"),
    ("https://web.facebook.com/nprwaitwait/videos", Facebook, "nprwaitwait"),
    ("https://www.facebook.com/pg/altonwalkershow/about/", Facebook, "altonwalkershow"),
    ("https://fb.com/culteducation", Facebook, "culteducation"),
    // Medium
    ("https://medium.com/@gabrielvaldivia", Medium, "gabrielvaldivia"),
    ("https://medium.com/@dustin", Medium, "dustin"),
    ("https://bryanbarletta.medium.com/", Medium, "bryanbarletta"),
    ("https://medium.com/google-design", Medium, "google-design"),
    ("https://medium.com/elementaryos/about", Medium, "elementaryos"),
    ("https://medium.com/@dan_abramov/followers", Medium, "dan_abramov"),
    // Reddit
    ("https://www.reddit.com/r/apolloapp/", Reddit, "apolloapp"),
    ("https://www.reddit.com/r/EveryLittleAnimation/", Reddit, "everylittleanimation"),
    ("https://old.reddit.com/r/linuxunplugged", Reddit, "linuxunplugged"),
    ("https://www.reddit.com/user/spez", Reddit, "spez"),
    ("https://reddit.com/u/Some_User-1/submitted", Reddit, "some_user-1"),
    ("https://www.reddit.com/r/podcasts/top/?t=week", Reddit, "podcasts"),
    // Bluesky
    ("https://bsky.app/profile/spice8rack.bsky.social", Bluesky, "spice8rack.bsky.social"),
    ("https://bsky.app/profile/theweeklyshowpodcast.com", Bluesky, "theweeklyshowpodcast.com"),
    ("https://bsky.app/profile/NPR.org/", Bluesky, "npr.org"),
    // Discord
    ("https://discord.com/invite/jjSYEQd", Discord, "jjSYEQd"),
    ("https://discord.com/invite/soberana", Discord, "soberana"),
    ("https://discord.gg/dx7ZWCy", Discord, "dx7ZWCy"),
    ("https://discordapp.com/invite/my-server", Discord, "my-server"),
    ("discord.gg/abcDEF12?ref=site", Discord, "abcDEF12"),
    // Linktree
    ("https://linktr.ee/justitiaswille", Linktree, "justitiaswille"),
    ("https://linktr.ee/Loloverruled?utm_source=linktree_profile_share&ltsid=e0270bb7", Linktree, "loloverruled"),
    ("https://linktr.ee/rmhendrickson.tipofthespear", Linktree, "rmhendrickson.tipofthespear"),
    ("https://linktr.ee/sabretooth.hoxton?fbclid=PAZXh0bgNhZW0", Linktree, "sabretooth.hoxton"),
    ("https://linktr.ee/girlsgirls_podcast", Linktree, "girlsgirls_podcast"),
    ("https://linktr.ee/thegarybrecka\u{2060}", Linktree, "thegarybrecka"),
    ("https://linktr.ee/diaryofaceostudies ", Linktree, "diaryofaceostudies"),
    // Substack
    ("https://justinmares.substack.com/", Substack, "justinmares"),
    ("https://taibbi.substack.com/", Substack, "taibbi"),
    ("https://kasai.substack.com", Substack, "kasai"),
    ("https://noahpinion.substack.com/about", Substack, "noahpinion"),
    ("https://doomberg.substack.com/subscribe?utm_source=podcast", Substack, "doomberg"),
    ("https://substack.com/@michaelyon", Substack, "michaelyon"),
    ("https://substack.com/@theoverlapnewsletter", Substack, "theoverlapnewsletter"),
    ("https://substack.com/@taylorlorenz", Substack, "taylorlorenz"),
    ("https://substack.com/profile/11803623-jamin-ball", Substack, "11803623-jamin-ball"),
    // Beehiiv
    ("https://thedailyupside.beehiiv.com", Beehiiv, "thedailyupside"),
    ("https://morning-brew.beehiiv.com/subscribe", Beehiiv, "morning-brew"),
    ("https://www.milk-road.beehiiv.com/archive", Beehiiv, "milk-road"),
    // Tumblr
    ("http://instagram-engineering.tumblr.com/", Tumblr, "instagram-engineering"),
    ("https://wcsmixtapepodcast.tumblr.com/", Tumblr, "wcsmixtapepodcast"),
    ("http://yesyesnos.tumblr.com/", Tumblr, "yesyesnos"),
    ("https://constable-frozen.tumblr.com/", Tumblr, "constable-frozen"),
    ("https://www.tumblr.com/buildbuildings", Tumblr, "buildbuildings"),
    ("https://www.tumblr.com/blog/view/trevortrevor", Tumblr, "trevortrevor"),
    ("https://allisonhouse.tumblr.com/archive", Tumblr, "allisonhouse"),
    // WhatsApp
    ("https://wa.me/message/3WKM4SDWPMAMG1", Whatsapp, "3WKM4SDWPMAMG1"),
    ("https://wa.me/15551234567", Whatsapp, "15551234567"),
    ("https://wa.me/+447911123456?text=Hi", Whatsapp, "447911123456"),
    ("https://api.whatsapp.com/send?phone=15551234567&text=hello", Whatsapp, "15551234567"),
    ("https://api.whatsapp.com/send/?phone=%2B15551234567", Whatsapp, "15551234567"),
    ("https://web.whatsapp.com/send?phone=5511987654321", Whatsapp, "5511987654321"),
    ("https://whatsapp.com/channel/0029Va8nAbCdEfGh1i2J3k", Whatsapp, "0029Va8nAbCdEfGh1i2J3k"),
    ("https://chat.whatsapp.com/KfLmNoPqRsT1234", Whatsapp, "KfLmNoPqRsT1234"),
    // Vimeo
    ("https://vimeo.com/ww", Vimeo, "ww"),
    ("https://vimeo.com/user12345", Vimeo, "user12345"),
    ("https://vimeo.com/staff/videos", Vimeo, "staff"),
    ("https://vimeo.com/TheDeprogram?ref=tw", Vimeo, "thedeprogram"),
    // SoundCloud
    ("https://soundcloud.com/streetfightwcrs", Soundcloud, "streetfightwcrs"),
    ("https://soundcloud.com/80000-hours", Soundcloud, "80000-hours"),
    ("http://www.soundcloud.com/chapo-trap-house/tracks", Soundcloud, "chapo-trap-house"),
    ("https://m.soundcloud.com/the_daily_show", Soundcloud, "the_daily_show"),
    // Twitch
    ("https://twitch.tv/Luna_oi", Twitch, "luna_oi"),
    ("https://www.twitch.tv/streetfightradio", Twitch, "streetfightradio"),
    ("https://www.twitch.tv/chapotraphouse", Twitch, "chapotraphouse"),
    ("https://www.twitch.tv/hasanabi", Twitch, "hasanabi"),
    ("https://www.twitch.tv/central_committee", Twitch, "central_committee"),
    ("http://www.twitch.tv/gorillawolfgaming", Twitch, "gorillawolfgaming"),
    ("https://www.twitch.tv/kayandskittles/videos", Twitch, "kayandskittles"),
    // Snapchat
    ("https://www.snapchat.com/add/ashybines1", Snapchat, "ashybines1"),
    ("https://www.snapchat.com/add/ashybines1?fbclid=IwAR3mtqnWC_Co6V", Snapchat, "ashybines1"),
    ("https://snapchat.com/@kylie.jenner", Snapchat, "kylie.jenner"),
    ("https://story.snapchat.com/@some_creator", Snapchat, "some_creator"),
    // Pinterest
    ("https://www.pinterest.com/jedmund/", Pinterest, "jedmund"),
    ("https://www.pinterest.com/jonvetica", Pinterest, "jonvetica"),
    ("https://uk.pinterest.com/marthastewart/_created/", Pinterest, "marthastewart"),
    ("https://www.pinterest.co.uk/bbcgoodfood/", Pinterest, "bbcgoodfood"),
    // Patreon
    ("https://www.patreon.com/mickunplugged", Patreon, "mickunplugged"),
    ("https://www.patreon.com/Boy_Boy", Patreon, "boy_boy"),
    ("https://www.patreon.com/cw/TheDeprogram", Patreon, "thedeprogram"),
    ("http://patreon.com/welcometonightvale/", Patreon, "welcometonightvale"),
    ("https://www.patreon.com/RevLeftRadio", Patreon, "revleftradio"),
    ("https://www.patreon.com/user?u=12345678", Patreon, "12345678"),
    ("https://www.patreon.com/join/chapotraphouse", Patreon, "chapotraphouse"),
    ("https://www.patreon.com/pihole/posts", Patreon, "pihole"),
    // GitHub
    ("https://github.com/Podcastindex-org", Github, "podcastindex-org"),
    ("https://github.com/BurntSushi", Github, "burntsushi"),
    ("http://github.com/neo4j", Github, "neo4j"),
    ("https://github.com/orgs/pi-hole/people", Github, "pi-hole"),
    ("https://github.com/sponsors/FiloSottile", Github, "filosottile"),
    ("https://github.com/torvalds?tab=repositories", Github, "torvalds"),
    // Behance
    ("https://www.behance.net/bradee", Behance, "bradee"),
    ("http://behance.net/malouie", Behance, "malouie"),
    ("https://www.behance.net/charliewaite", Behance, "charliewaite"),
    ("https://www.behance.net/megdraws/projects", Behance, "megdraws"),
    // Mastodon
    ("https://mastodon.social/@Gargron", Mastodon, "gargron@mastodon.social"),
    ("https://fosstodon.org/@linuxunplugged", Mastodon, "linuxunplugged@fosstodon.org"),
    ("https://podcastindex.social/@dave", Mastodon, "dave@podcastindex.social"),
    ("https://mastodon.example.org/@host_1", Mastodon, "host_1@mastodon.example.org"),
    ("https://hachyderm.io/users/kris_nova", Mastodon, "kris_nova@hachyderm.io"),
    ("https://mastodon.social/@jerry@infosec.exchange", Mastodon, "jerry@infosec.exchange"),
];

/// (link, platform, why it is rejected)
#[rustfmt::skip]
const REJECTED: &[(&str, SocialKind, SocialUrlProblem)] = &[
    // Twitter / X
    ("https://twitter.com/", Twitter, RootDomain),
    ("https://x.com", Twitter, RootDomain),
    ("https://twitter.com/home", Twitter, NonProfilePath),
    ("https://twitter.com/share?url=https%3A%2F%2Fexample.com", Twitter, NonProfilePath),
    ("https://twitter.com/intent/tweet?text=hi", Twitter, NonProfilePath),
    ("https://twitter.com/search?q=podcast", Twitter, NonProfilePath),
    ("https://twitter.com/hashtag/podcast", Twitter, NonProfilePath),
    ("https://twitter.com/i/status/123", Twitter, NonProfilePath),
    ("https://x.com/explore", Twitter, NonProfilePath),
    ("https://twitter.com/settings/profile", Twitter, NonProfilePath),
    ("https://twitter.com/login", Twitter, NonProfilePath),
    ("https://twitter.com/tos", Twitter, NonProfilePath),
    ("https://twitter.com/privacy", Twitter, NonProfilePath),
    ("https://twitter.com/npr/status/1234567890", Twitter, NonProfilePath),
    ("https://twitter.com/thisnameistoolong16", Twitter, InvalidHandle),
    // A remote Mastodon account's home instance must be a host name (found by the
    // social_urls fuzz target: a NUL in it made a canonical URL that did not validate).
    ("http://front-end.social/@sortbl@sort\u{0}iblog.tpn", Mastodon, InvalidHandle),
    ("https://mastodon.social/@jerry@infosec..exchange", Mastodon, InvalidHandle),
    ("https://x.com/blowbackpodBRENDAN:", Twitter, InvalidHandle),
    ("https://blog.twitter.com/en_us/topics/company", Twitter, NonProfileHost),
    ("https://analytics.twitter.com/about", Twitter, NonProfileHost),
    // Instagram
    ("https://www.instagram.com/", Instagram, RootDomain),
    ("https://www.instagram.com/p/CxYz123abc/", Instagram, NonProfilePath),
    ("https://www.instagram.com/reel/C1a2b3c4d5/", Instagram, NonProfilePath),
    ("https://www.instagram.com/explore/tags/podcast/", Instagram, NonProfilePath),
    ("https://www.instagram.com/accounts/login/", Instagram, NonProfilePath),
    ("https://www.instagram.com/stories/npr/123/", Instagram, NonProfilePath),
    ("https://instagram.com/_mrdidi/", Instagram, InvalidHandle),
    ("https://instagram.com/jamiekernlima%20", Instagram, InvalidHandle),
    ("https://www.instagram.com/.hidden", Instagram, InvalidHandle),
    ("https://www.instagram.com/trailing./", Instagram, InvalidHandle),
    ("https://www.instagram.com/dou..ble", Instagram, InvalidHandle),
    ("https://www.instagram.com/this_handle_is_longer_than_30ch", Instagram, InvalidHandle),
    ("http://blog.instagram.com/post/114416360957/layout-from-instagram", Instagram, NonProfileHost),
    ("https://www.secure.instagram.com/", Instagram, NonProfileHost),
    // Threads
    ("https://www.threads.net/", Threads, RootDomain),
    ("https://www.threads.net/hubermanlab", Threads, NonProfilePath),
    ("https://www.threads.net/@zuck/post/C1234", Threads, NonProfilePath),
    ("https://www.threads.net/@_zuck", Threads, InvalidHandle),
    // TikTok
    ("https://www.tiktok.com/", Tiktok, RootDomain),
    ("https://www.tiktok.com/en/", Tiktok, NonProfilePath),
    ("https://www.tiktok.com/@frankielapenna/video/7010077215576575238", Tiktok, NonProfilePath),
    ("https://www.tiktok.com/@jd?lang=en", Tiktok, InvalidHandle),
    ("https://vt.tiktok.com/ZS2j1nN3T/", Tiktok, NonProfileHost),
    ("https://vm.tiktok.com/ZMabc123/", Tiktok, NonProfileHost),
    ("https://www.tiktok.com/discover/podcast", Tiktok, NonProfilePath),
    // YouTube
    ("https://www.youtube.com/", Youtube, RootDomain),
    ("https://youtu.be/dQw4w9WgXcQ", Youtube, NonProfilePath),
    ("https://www.youtube.com/watch?v=dQw4w9WgXcQ", Youtube, NonProfilePath),
    ("https://youtube.com/playlist?list=PLPNW_gerXa4PKMqne6CTj7tWvUvObWA3s", Youtube, NonProfilePath),
    ("https://www.youtube.com/shorts/ijdpFw5AMm4?feature=share", Youtube, NonProfilePath),
    ("https://youtube.com/live/pnftrJrnDxw", Youtube, NonProfilePath),
    ("https://www.youtube.com/feed/subscriptions", Youtube, NonProfilePath),
    ("https://www.youtube.com/about", Youtube, NonProfilePath),
    ("https://www.youtube.com/gaming", Youtube, NonProfilePath),
    ("https://www.youtube.com/news", Youtube, NonProfilePath),
    ("https://www.youtube.com/sports", Youtube, NonProfilePath),
    ("https://www.youtube.com/fashion", Youtube, NonProfilePath),
    ("https://www.youtube.com/music", Youtube, NonProfilePath),
    ("https://www.youtube.com/movies", Youtube, NonProfilePath),
    ("https://www.youtube.com/live", Youtube, NonProfilePath),
    ("https://www.youtube.com/spotlight", Youtube, NonProfilePath),
    ("https://www.youtube.com/learning", Youtube, NonProfilePath),
    ("https://www.youtube.com/browse", Youtube, NonProfilePath),
    ("https://www.youtube.com/trending", Youtube, NonProfilePath),
    ("https://www.youtube.com/channel/UCshort", Youtube, InvalidHandle),
    ("https://www.youtube.com/@f...", Youtube, InvalidHandle),
    ("https://www.youtube.com/c/RichardDWolff/featu...", Youtube, NonProfilePath),
    ("https://www.youtube.com/@podsaveamerica/videos/extra", Youtube, NonProfilePath),
    ("https://gaming.youtube.com/", Youtube, NonProfileHost),
    ("https://studio.youtube.com/channel/UCUi00Bia46ldMzwEqniEZRQ", Youtube, NonProfileHost),
    ("https://www.remote.podcast.youtube.com/", Youtube, NonProfileHost),
    // LinkedIn
    ("https://www.linkedin.com/", Linkedin, RootDomain),
    ("https://www.linkedin.com/pulse/money-credit-debt-ray-dalio/", Linkedin, NonProfilePath),
    ("https://www.linkedin.com/feed/update/urn:li:activity:6805900536987090947/", Linkedin, NonProfilePath),
    ("https://www.linkedin.com/shareArticle?url=https://go.ivoox.com/rf/113954595", Linkedin, NonProfilePath),
    ("https://www.linkedin.com/doac24", Linkedin, NonProfilePath),
    ("https://www.linkedin.com/in/", Linkedin, NonProfilePath),
    ("https://www.linkedin.com/in/ab", Linkedin, InvalidHandle),
    ("https://www.linkedin.com/in/-lead", Linkedin, InvalidHandle),
    ("https://www.linkedin.com/in/double--hyphen", Linkedin, InvalidHandle),
    ("https://www.linkedin.com/in/j%C3%BCrgen-m", Linkedin, InvalidHandle),
    ("https://business.linkedin.com/talent-solutions/post-jobs?src=re-pod&trk=stf", Linkedin, NonProfileHost),
    // Facebook
    ("https://www.facebook.com/", Facebook, RootDomain),
    ("http://www.facebook.com/sharer.php?u=https://share.transistor.fm/s/70c487ed", Facebook, NonProfilePath),
    ("https://www.facebook.com/sharer/sharer.php?u=x", Facebook, NonProfilePath),
    ("https://www.facebook.com/share/abc123/", Facebook, NonProfilePath),
    ("https://www.facebook.com/dialog/feed?app_id=1", Facebook, NonProfilePath),
    ("https://www.facebook.com/plugins/page.php?href=x", Facebook, NonProfilePath),
    ("https://www.facebook.com/groups/962002557970022/?ref=share", Facebook, NonProfilePath),
    ("https://www.facebook.com/groups/justiceforshawnobrien/", Facebook, NonProfilePath),
    ("https://www.facebook.com/events/123456789/", Facebook, NonProfilePath),
    ("https://www.facebook.com/pages/Some-Page/123456789", Facebook, NonProfilePath),
    ("https://www.facebook.com/watch/?v=123", Facebook, NonProfilePath),
    ("https://www.facebook.com/permalink.php?story_fbid=1&id=2", Facebook, NonProfilePath),
    ("https://www.facebook.com/profile.php", Facebook, NonProfilePath),
    ("https://www.facebook.com/profile.php?id=12345", Facebook, InvalidHandle),
    ("https://www.facebook.com/123456789012", Facebook, InvalidHandle),
    ("https://www.facebook.com/npr", Facebook, InvalidHandle),
    ("https://www.facebook.com/some_page", Facebook, InvalidHandle),
    ("https://www.facebook.com/MegynKelly/posts/12345", Facebook, NonProfilePath),
    ("https://graph.facebook.com/100001526653842/picture?width=1400", Facebook, NonProfileHost),
    ("https://newsroom.fb.com/news/", Facebook, NonProfileHost),
    // Medium
    ("https://medium.com/", Medium, RootDomain),
    ("https://medium.com/@deepmindsafetyresearch/scalable-agent-alignment-via-reward-modeling-bf4ab06dfd84", Medium, NonProfilePath),
    ("https://medium.com/photoshop/layer-comps-and-place-linked-smart-objects-6feb574963ef", Medium, NonProfilePath),
    ("https://henrysward.medium.com/how-we-handle-captable-information-c98d85d79277", Medium, NonProfilePath),
    ("https://medium.com/tag/podcasting", Medium, NonProfilePath),
    ("https://medium.com/m/signin", Medium, NonProfilePath),
    ("https://medium.com/p/6feb574963ef", Medium, NonProfilePath),
    ("https://medium.com/-bad-pub", Medium, InvalidHandle),
    ("https://help.medium.com/hc/en-us", Medium, NonProfileHost),
    // Reddit
    ("https://www.reddit.com/", Reddit, RootDomain),
    ("https://www.reddit.com/r/linux/comments/8ooz81/seem_like_atom_will_stay_alive/", Reddit, NonProfilePath),
    ("https://old.reddit.com/r/AskReddit/comments/3cs78i/whats_the_best_long_con/cszjqg2", Reddit, NonProfilePath),
    ("https://www.reddit.com/search?q=podcast", Reddit, NonProfilePath),
    ("https://www.reddit.com/r/", Reddit, NonProfilePath),
    ("https://www.reddit.com/r/4chan", Reddit, InvalidHandle),
    ("https://www.reddit.com/user/ab", Reddit, InvalidHandle),
    ("https://www.reddit.com/u/1user", Reddit, InvalidHandle),
    ("https://i.reddit.com/r/linux", Reddit, NonProfileHost),
    // Bluesky
    ("https://bsky.app/", Bluesky, RootDomain),
    ("https://bsky.app/search?q=podcast", Bluesky, NonProfilePath),
    ("https://bsky.app/profile/npr.org/post/3kabc", Bluesky, NonProfilePath),
    ("https://bsky.app/profile/spice8rack.bsky.socialYoutube:", Bluesky, InvalidHandle),
    ("https://bsky.app/profile/did:plc:z72i7hdynmk6r22z27h6tvur", Bluesky, InvalidHandle),
    // Discord
    ("https://discord.com/", Discord, RootDomain),
    ("https://discord.gg/", Discord, RootDomain),
    ("https://discord.com/channels/123/456", Discord, NonProfilePath),
    ("https://discord.com/invite/sober...", Discord, InvalidHandle),
    ("https://discord.gg/abcd", Discord, InvalidHandle),
    ("https://discord.gg/a_b_c_d", Discord, InvalidHandle),
    ("https://support.discord.com/hc/en-us", Discord, NonProfileHost),
    // Linktree
    ("https://linktr.ee/", Linktree, RootDomain),
    ("https://linktr.ee/s/about", Linktree, NonProfilePath),
    ("https://linktr.ee/marketplace", Linktree, NonProfilePath),
    ("https://linktr.ee/ab", Linktree, InvalidHandle),
    ("https://linktr.ee/bad..name", Linktree, InvalidHandle),
    // Substack
    ("https://substack.com/", Substack, RootDomain),
    ("https://substack.com/browse/podcasts", Substack, NonProfilePath),
    ("https://taibbi.substack.com/p/the-censorship-files", Substack, NonProfilePath),
    ("https://jill.substack.com/", Substack, InvalidHandle),
    ("https://substack.com/@theoverlapnewsl...", Substack, InvalidHandle),
    ("https://on.substack.com/p/grow", Substack, NonProfileHost),
    ("https://support.substack.com/hc/en-us", Substack, NonProfileHost),
    // Beehiiv
    ("https://www.beehiiv.com/", Beehiiv, RootDomain),
    ("https://www.beehiiv.com/pricing", Beehiiv, NonProfilePath),
    ("https://app.beehiiv.com/signup", Beehiiv, NonProfileHost),
    ("https://thedailyupside.beehiiv.com/p/some-post", Beehiiv, NonProfilePath),
    ("https://ab.beehiiv.com/", Beehiiv, InvalidHandle),
    // Tumblr
    ("https://www.tumblr.com/", Tumblr, RootDomain),
    ("https://www.tumblr.com/dashboard", Tumblr, NonProfilePath),
    ("https://www.tumblr.com/explore/trending", Tumblr, NonProfilePath),
    ("https://www.tumblr.com/tagged/podcast", Tumblr, NonProfilePath),
    ("https://staff.tumblr.com/post/123/title", Tumblr, NonProfilePath),
    ("https://www.tumblr.com/buildbuildings/123456789", Tumblr, NonProfilePath),
    ("https://abcd.tumblr.com/", Tumblr, InvalidHandle),
    ("https://64.media.tumblr.com/abc/s640x960/x.jpg", Tumblr, NonProfileHost),
    // WhatsApp
    ("https://wa.me/", Whatsapp, RootDomain),
    ("https://www.whatsapp.com/", Whatsapp, RootDomain),
    ("https://www.whatsapp.com/legal/privacy-policy", Whatsapp, NonProfilePath),
    ("https://wa.me/1234", Whatsapp, InvalidHandle),
    ("https://wa.me/12-34-56", Whatsapp, InvalidHandle),
    ("https://api.whatsapp.com/send?text=hello", Whatsapp, NonProfilePath),
    ("https://faq.whatsapp.com/general", Whatsapp, NonProfileHost),
    // Vimeo
    ("https://vimeo.com/", Vimeo, RootDomain),
    ("http://vimeo.com/113751583", Vimeo, InvalidHandle),
    ("https://vimeo.com/ondemand/marylynnrajskub", Vimeo, NonProfilePath),
    ("https://vimeo.com/channels/staffpicks/123", Vimeo, NonProfilePath),
    ("https://vimeo.com/groups/podcasting", Vimeo, NonProfilePath),
    ("https://vimeo.com/staff/likes/extra", Vimeo, NonProfilePath),
    ("https://player.vimeo.com/video/123", Vimeo, NonProfileHost),
    // SoundCloud
    ("https://soundcloud.com/", Soundcloud, RootDomain),
    ("https://soundcloud.com/streetfightwcrs/roseanne-really-smells-like-poo-poo-ooo", Soundcloud, NonProfilePath),
    ("https://soundcloud.com/discover", Soundcloud, NonProfilePath),
    ("https://soundcloud.com/search?q=podcast", Soundcloud, NonProfilePath),
    ("https://soundcloud.com/ab", Soundcloud, InvalidHandle),
    ("https://feeds.soundcloud.com/users/soundcloud:users:105138960/sounds.rss", Soundcloud, NonProfileHost),
    ("https://on.soundcloud.com/abc123", Soundcloud, NonProfileHost),
    // Twitch
    ("https://www.twitch.tv/", Twitch, RootDomain),
    ("https://www.twitch.tv/pc20/livestream", Twitch, NonProfilePath),
    ("https://www.twitch.tv/directory/game/Just%20Chatting", Twitch, NonProfilePath),
    ("https://www.twitch.tv/videos/123456789", Twitch, NonProfilePath),
    ("https://www.twitch.tv/abc", Twitch, InvalidHandle),
    ("https://www.twitch.tv/1abc", Twitch, InvalidHandle),
    ("https://www.twitch.tv/_abcd", Twitch, InvalidHandle),
    ("https://www.twitch.tv/ab__cd", Twitch, InvalidHandle),
    ("https://clips.twitch.tv/SomeClip", Twitch, NonProfileHost),
    // Snapchat
    ("https://www.snapchat.com/", Snapchat, RootDomain),
    ("https://www.snapchat.com/add/abc", Snapchat, InvalidHandle),
    ("https://www.snapchat.com/discover/some-show/123", Snapchat, NonProfilePath),
    ("https://parents.snapchat.com/en-GB/parental-controls", Snapchat, NonProfileHost),
    // Pinterest
    ("https://www.pinterest.com/", Pinterest, RootDomain),
    ("https://www.pinterest.com/pin/491244271857449720", Pinterest, NonProfilePath),
    ("https://www.pinterest.com/search/pins/?q=podcast", Pinterest, NonProfilePath),
    ("https://www.pinterest.com/jedmund/some-board/", Pinterest, NonProfilePath),
    ("https://www.pinterest.com/ab/", Pinterest, InvalidHandle),
    ("https://business.pinterest.com/en/rich-pins", Pinterest, NonProfileHost),
    ("https://pin.it/abc123", Pinterest, NonProfileHost),
    // Patreon
    ("https://www.patreon.com/", Patreon, RootDomain),
    ("https://www.patreon.com/posts/episode-42-123456", Patreon, NonProfilePath),
    ("https://www.patreon.com/login", Patreon, NonProfilePath),
    ("https://www.patreon.com/bePatron?u=123", Patreon, NonProfilePath),
    ("https://www.patreon.com/TheDeprogram...", Patreon, InvalidHandle),
    ("https://www.patreon.com/_leading", Patreon, InvalidHandle),
    ("https://www.patreon.com/user?u=abc", Patreon, InvalidHandle),
    ("https://www.patreon.com/mickunplugged/extra/path", Patreon, NonProfilePath),
    // GitHub
    ("https://github.com/", Github, RootDomain),
    ("https://github.com/FiloSottile/age", Github, NonProfilePath),
    ("https://github.com/pi-hole/pi-hole/#one-step-automated-install", Github, NonProfilePath),
    ("https://github.com/MediaBrowser/Emby/issues/3479", Github, NonProfilePath),
    ("https://github.com/features/actions", Github, NonProfilePath),
    ("https://github.com/login", Github, NonProfilePath),
    ("https://github.com/-bad-", Github, InvalidHandle),
    ("https://gist.github.com/piscisaureus/3342247", Github, NonProfileHost),
    ("https://help.github.com/en/articles/about-github-package-registry", Github, NonProfileHost),
    // Behance
    ("http://behance.net/", Behance, RootDomain),
    ("https://www.behance.net/gallery/123456/Project-Name", Behance, NonProfilePath),
    ("https://www.behance.net/search/projects", Behance, NonProfilePath),
    ("https://www.behance.net/ab", Behance, InvalidHandle),
    // Mastodon
    ("https://mastodon.social/", Mastodon, RootDomain),
    ("https://mastodon.social/about", Mastodon, NonProfilePath),
    ("https://mastodon.social/@Gargron/109316612345678901", Mastodon, NonProfilePath),
    ("https://fosstodon.org/@bad-name", Mastodon, InvalidHandle),
];

/// Links that belong to none of the 25 platforms.
#[rustfmt::skip]
const NOT_SOCIAL: &[&str] = &[
    "https://www.npr.org/podcasts/381444908/fresh-air", "http://blog.netflix.com/",
    "https://www.phoronix.com/scan.php?page=news_item&px=OpenZFS-2.0-Released",
    "https://www.vox.com/technology/2023/4/18/meta-layoffs-facebook-instagram-whatsapp",
    "https://podcasts.apple.com/us/podcast/the-daily/id1200361736",
    "https://open.spotify.com/show/3IM0lmZxpFAY7CwMuv9H4g", "https://cnc-mojiku240510.peatix.com/",
    "https://twitter.com.evil.example/npr", "mailto:hello@example.com", "tel:+15551234567",
    "not a url", "",
];

#[test]
fn accepted_links_classify_and_validate() {
    for (link, kind, handle) in ACCEPTED {
        let profile = match classify_social_url(link) {
            Some(Ok(profile)) => profile,
            other => panic!("{link}: expected a {kind} profile, got {other:?}"),
        };
        assert_eq!(profile.kind, *kind, "{link}");
        assert_eq!(profile.handle, *handle, "{link}");
        assert_eq!(
            validate_social_url(*kind, link).as_ref(),
            Ok(&profile),
            "{link}"
        );
    }
}

#[test]
fn canonical_urls_are_stable_profiles() {
    for (link, kind, _) in ACCEPTED {
        let profile = validate_social_url(*kind, link).unwrap();
        assert!(profile.url.starts_with("https://"), "{}", profile.url);
        assert!(
            !profile.url.contains(['?', '#'])
                || profile.url.contains("?id=")
                || profile.url.contains("?u=")
        );
        let again = classify_social_url(&profile.url).unwrap().unwrap();
        assert_eq!(
            again, profile,
            "canonical form of {link} reclassifies to itself"
        );
    }
}

#[test]
fn rejected_links_give_the_platform_message() {
    for (link, kind, problem) in REJECTED {
        let classified = classify_social_url(link);
        let expected = SocialUrlError {
            kind: *kind,
            problem: *problem,
        };
        assert_eq!(classified, Some(Err(expected)), "{link}");
        assert_eq!(validate_social_url(*kind, link), Err(expected), "{link}");
        assert_eq!(expected.to_string(), failure_message(*kind));
    }
}

#[test]
fn links_to_other_sites_are_not_classified() {
    for link in NOT_SOCIAL {
        assert_eq!(classify_social_url(link), None, "{link}");
    }
}

#[test]
fn a_link_checked_against_the_wrong_platform_fails() {
    let error = validate_social_url(Instagram, "https://twitter.com/npr").unwrap_err();
    assert_eq!(error.problem, OtherPlatform);
    assert_eq!(error.to_string(), "Invalid Instagram profile URL");
    let error = validate_social_url(Twitter, "mailto:npr@example.com").unwrap_err();
    assert_eq!(error.problem, UnsupportedScheme);
    let error = validate_social_url(Github, "nothing here").unwrap_err();
    assert_eq!(error.problem, NotAUrl);
    assert_eq!(error.to_string(), "Invalid GitHub profile URL");
    // Mastodon runs anywhere: a caller who says so is believed about the host.
    let profile = validate_social_url(Mastodon, "https://social.example.net/@podcaster").unwrap();
    assert_eq!(profile.handle, "podcaster@social.example.net");
    assert_eq!(
        classify_social_url("https://social.example.net/@podcaster"),
        None
    );
}

#[test]
fn every_platform_is_covered_by_the_tables() {
    for kind in SocialKind::ALL {
        let accepted = ACCEPTED.iter().filter(|(_, k, _)| k == kind).count();
        let rejected = REJECTED.iter().filter(|(_, k, _)| k == kind).count();
        assert!(accepted >= 3, "{kind}: {accepted} accepted shapes");
        assert!(rejected >= 4, "{kind}: {rejected} rejected shapes");
        assert!(
            REJECTED
                .iter()
                .any(|(_, k, problem)| k == kind && *problem == RootDomain),
            "{kind}: root domain"
        );
    }
}

#[test]
fn failure_messages_name_their_platform_and_differ() {
    let messages: std::collections::BTreeSet<&str> = SocialKind::ALL
        .iter()
        .map(|kind| failure_message(*kind))
        .collect();
    assert_eq!(messages.len(), 25);
    assert_eq!(failure_message(Instagram), "Invalid Instagram profile URL");
    for kind in SocialKind::ALL {
        let message = failure_message(*kind);
        assert!(message.starts_with("Invalid "), "{message}");
        let name = kind.as_str();
        assert!(
            message
                .to_lowercase()
                .contains(if name == "twitter" { "twitter/x" } else { name }),
            "{message}"
        );
    }
}

#[test]
fn hostile_inputs_never_panic() {
    let long = format!("https://twitter.com/{}", "a".repeat(100_000));
    let inputs = [
        long.as_str(),
        "https://%",
        "https://[::1]/x",
        "https://twitter.com/%F0%9F%98%80",
        "https://www.facebook.com/profile.php?id=%00",
        "https://wa.me/%2B",
        "https://xn--n3h.com/@x",
        "http://mastodon.social/@",
        "https://www.youtube.com/@",
        "https://l.facebook.com/l.php?u=https%3A%2F%2Fl.facebook.com%2Fl.php%3Fu%3Dhttps%253A%252F%252Fl.facebook.com",
    ];
    for input in inputs {
        let _ = classify_social_url(input);
        for kind in SocialKind::ALL {
            let _ = validate_social_url(*kind, input);
        }
    }
}

/// Regression: a tracking pixel on a corpus page (NPR's
/// `facebook.com/tr?id=…&ev=PageView&noscript=1`) was reported as a social profile.
/// Pixels, beacons, share, intent and post links of every platform are never profiles.
#[test]
fn tracking_pixels_share_and_intent_links_are_never_profiles() {
    let links = [
        "https://www.facebook.com/tr?id=1621557368158968&ev=PageView&noscript=1",
        "https://www.facebook.com/tr/?id=1621557368158968&ev=PageView",
        "https://facebook.com/tr",
        "http://www.facebook.com/home.php?ref=home",
        "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fnpr.org",
        "https://www.facebook.com/sharer.php?u=x",
        "https://www.facebook.com/dialog/share?app_id=1&href=x",
        "https://www.facebook.com/plugins/like.php?href=x",
        "https://www.facebook.com/login.php",
        "https://connect.facebook.net/en_US/fbevents.js",
        "https://x.com/intent/tweet?text=hello",
        "https://twitter.com/intent/tweet?url=x",
        "https://twitter.com/share?url=x",
        "https://twitter.com/i/web/status/123",
        "https://analytics.twitter.com/i/adsct?txn_id=x&p_id=Twitter",
        "https://t.co/abc123",
        "https://www.linkedin.com/shareArticle?mini=true&url=x",
        "https://www.linkedin.com/sharing/share-offsite/?url=x",
        "https://px.ads.linkedin.com/collect/?pid=1&fmt=gif",
        "https://www.linkedin.com/px/li_sync",
        "https://pinterest.com/pin/create/button/?url=x",
        "https://ct.pinterest.com/v3/?event=init&tid=1&noscript=1",
        "https://www.reddit.com/submit?url=x",
        "https://www.tumblr.com/share/link?url=x",
        "https://www.tumblr.com/widgets/share/tool?canonicalUrl=x",
        "https://wa.me/?text=x",
        "https://api.whatsapp.com/send?text=x",
        "https://www.instagram.com/p/CqXyZ123/",
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "https://www.youtube.com/embed/dQw4w9WgXcQ",
        "https://www.tiktok.com/embed/v2/123",
        "https://analytics.tiktok.com/i18n/pixel/events.js",
        "https://bsky.app/intent/compose?text=x",
        "https://www.threads.net/intent/post?text=x",
    ];
    let accepted: Vec<String> = links
        .iter()
        .filter_map(|link| match classify_social_url(link) {
            Some(Ok(profile)) => Some(format!("{link} -> {}", profile.url)),
            _ => None,
        })
        .collect();
    assert!(accepted.is_empty(), "{accepted:#?}");
}
