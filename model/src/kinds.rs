//! The two link-kind enumerations of SPEC.md §3: the 25 social platforms and the
//! 24 podcast directories. Their wire values are the spec's lowercase names.

use serde::{Deserialize, Serialize};

macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $wire)] $variant),+
        }

        impl $name {
            /// Every value, in the spec's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value as it appears on the wire.
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$variant => $wire),+ }
            }

            /// Parses a wire value; unknown values are `None`, never mapped to a default.
            pub fn parse(value: &str) -> Option<Self> {
                match value { $($wire => Some($name::$variant),)+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        /// In the OpenAPI document: a string, one of the wire values.
        #[cfg(feature = "openapi")]
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some([$($wire),+]))
                    .into()
            }
        }

        #[cfg(feature = "openapi")]
        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(stringify!($name))
            }
        }
    };
}
pub(crate) use wire_enum;

wire_enum! {
    /// The 25 social platforms a podcast can link to.
    SocialKind {
        Beehiiv => "beehiiv", Behance => "behance", Bluesky => "bluesky", Discord => "discord",
        Facebook => "facebook", Github => "github", Instagram => "instagram",
        Linkedin => "linkedin", Linktree => "linktree", Mastodon => "mastodon",
        Medium => "medium", Patreon => "patreon", Pinterest => "pinterest", Reddit => "reddit",
        Snapchat => "snapchat", Soundcloud => "soundcloud", Substack => "substack",
        Threads => "threads", Tiktok => "tiktok", Tumblr => "tumblr", Twitch => "twitch",
        Twitter => "twitter", Vimeo => "vimeo", Whatsapp => "whatsapp", Youtube => "youtube",
    }
}

wire_enum! {
    /// The 24 podcast directories a podcast can be listed in.
    DirectoryKind {
        Apple => "apple", Anchor => "anchor", Amazonmusic => "amazonmusic",
        Audible => "audible", Castbox => "castbox", Castro => "castro",
        Goodpods => "goodpods", Google => "google", Iheartradio => "iheartradio",
        Listennotes => "listennotes", Overcast => "overcast", Playerfm => "playerfm",
        Pocketcasts => "pocketcasts", Podbean => "podbean", Podcastaddict => "podcastaddict",
        Podcastrepublic => "podcastrepublic", Podchaser => "podchaser", Podnews => "podnews",
        Podscan => "podscan", Podscribe => "podscribe", Radiopublic => "radiopublic",
        Rephonic => "rephonic", Spotify => "spotify", Tunein => "tunein",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_counts() {
        assert_eq!(SocialKind::ALL.len(), 25);
        assert_eq!(DirectoryKind::ALL.len(), 24);
    }

    #[test]
    fn unknown_values_are_rejected() {
        assert_eq!(SocialKind::parse("myspace"), None);
        assert!(serde_json::from_str::<SocialKind>("\"myspace\"").is_err());
        assert!(serde_json::from_str::<DirectoryKind>("\"Apple\"").is_err());
        assert_eq!(
            serde_json::from_str::<DirectoryKind>("\"pocketcasts\"").unwrap(),
            DirectoryKind::Pocketcasts
        );
    }
}
