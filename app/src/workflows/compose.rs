//! The built-in offline outreach writer: the five templates of SPEC.md §3 (default,
//! concise, topicsIdeas, discussion, ultraConcise) as texts with bracketed
//! placeholders, filled from the podcast (host first name, show, a recent episode)
//! and the guest, and shaped by the generation options. No network, no model.

use podlens_model::entities::OutreachOptions;
use podlens_model::enums::{
    CallToActionStyle, EmailLength, GenerationMode, OutreachPerspective, OutreachTemplateKind,
    PersonalizationLevel,
};

/// Who is pitched for the interview.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutreachGuestInfo {
    pub name: String,
    pub company_name: Option<String>,
    pub short_bio: Option<String>,
    pub expertise: Option<String>,
    pub topics: Vec<String>,
}

/// Everything the placeholders are filled from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutreachContext {
    pub host_first_name: Option<String>,
    pub podcast_title: String,
    pub recent_episode_title: Option<String>,
    pub podcast_genres: Vec<String>,
    pub guest: OutreachGuestInfo,
    pub sender_name: String,
}

/// The text of a built-in template. `[Hook]`, `[Introduction]`, `[Details]` and
/// `[Call To Action]` are written from the options; the others are plain values.
pub fn template_text(kind: OutreachTemplateKind) -> &'static str {
    match kind {
        OutreachTemplateKind::Default => {
            "Hi [Host First Name],\n\n[Hook]\n\n[Introduction]\n\nI think your listeners would enjoy a conversation about [Topics].\n[Details]\n[Call To Action]\n\nBest,\n[Sender Name]"
        }
        OutreachTemplateKind::Concise => {
            "Hi [Host First Name],\n\n[Hook] [Introduction]\n\nWould a conversation on [Topics] fit [Podcast Name]?\n[Details]\n[Call To Action]\n\nThanks,\n[Sender Name]"
        }
        OutreachTemplateKind::TopicsIdeas => {
            "Hi [Host First Name],\n\n[Hook]\n\n[Introduction]\n\nA few episode ideas for [Podcast Name]:\n[Topic List]\n[Details]\n[Call To Action]\n\nBest,\n[Sender Name]"
        }
        OutreachTemplateKind::Discussion => {
            "Hi [Host First Name],\n\n[Hook]\n\n[Introduction]\n\nI'd love to open a discussion with you on [Topics]: where the common view falls short, and what [Guest Name] has seen work in practice.\n[Details]\n[Call To Action]\n\nWarm regards,\n[Sender Name]"
        }
        OutreachTemplateKind::UltraConcise => {
            "Hi [Host First Name], [Guest Name] of [Company Name] would make a good guest for [Podcast Name] on [Topics]. [Call To Action]\n\n[Sender Name]"
        }
    }
}

/// The name and description a built-in template is listed with.
pub fn template_title(kind: OutreachTemplateKind) -> (&'static str, &'static str) {
    match kind {
        OutreachTemplateKind::Default => (
            "Default",
            "A hook, who the guest is, the topics and the details, then the ask.",
        ),
        OutreachTemplateKind::Concise => (
            "Concise",
            "The same pitch in fewer lines: hook and introduction in one paragraph.",
        ),
        OutreachTemplateKind::TopicsIdeas => (
            "Topics & ideas",
            "Leads with a list of episode ideas for the show.",
        ),
        OutreachTemplateKind::Discussion => (
            "Discussion",
            "Opens a discussion on the topics and where the guest's view differs.",
        ),
        OutreachTemplateKind::UltraConcise => (
            "Ultra concise",
            "Two sentences: who, why this show, and the ask.",
        ),
    }
}

fn subject_text(kind: OutreachTemplateKind) -> &'static str {
    match kind {
        OutreachTemplateKind::Default => "Guest idea for [Podcast Name]: [Guest Name]",
        OutreachTemplateKind::Concise => "[Guest Name] on [Podcast Name]?",
        OutreachTemplateKind::TopicsIdeas => "Episode ideas for [Podcast Name]",
        OutreachTemplateKind::Discussion => "A conversation for [Podcast Name]",
        OutreachTemplateKind::UltraConcise => "Guest for [Podcast Name]",
    }
}

/// Titles skipped in front of a first name.
const HONORIFICS: [&str; 6] = ["dr", "mr", "mrs", "ms", "mx", "prof"];

/// The first name of a host: the first word (after any title) of the first host name,
/// else of the feed owner's name, when it is a word of letters.
pub fn host_first_name(host_names: &[String], owner_name: Option<&str>) -> Option<String> {
    host_names
        .iter()
        .map(String::as_str)
        .chain(owner_name)
        .filter_map(|name| {
            name.split_whitespace()
                .map(|word| word.trim_matches(|character: char| !character.is_alphabetic()))
                .find(|word| !HONORIFICS.contains(&word.to_lowercase().as_str()))
        })
        .find(|word| word.chars().count() >= 2 && word.chars().all(char::is_alphabetic))
        .map(str::to_owned)
}

fn list_phrase(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [first, second] => format!("{first} and {second}"),
        [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
    }
}

fn topics_phrase(context: &OutreachContext) -> String {
    let topics: Vec<String> = context.guest.topics.iter().take(3).cloned().collect();
    if topics.is_empty() {
        context
            .guest
            .expertise
            .clone()
            .unwrap_or_else(|| "the work behind the headlines".to_owned())
    } else {
        list_phrase(&topics)
    }
}

fn hook(context: &OutreachContext, level: PersonalizationLevel) -> String {
    let show = &context.podcast_title;
    let episode = context.recent_episode_title.as_deref();
    match (level, episode) {
        (PersonalizationLevel::Light, _) | (_, None) => format!("I've been listening to {show}."),
        (PersonalizationLevel::Medium, Some(episode)) => {
            format!("I enjoyed your recent episode \"{episode}\" of {show}.")
        }
        (PersonalizationLevel::Heavy, Some(episode)) => {
            let genres = list_phrase(
                &context
                    .podcast_genres
                    .iter()
                    .take(2)
                    .cloned()
                    .collect::<Vec<_>>(),
            );
            let focus = if genres.is_empty() {
                String::new()
            } else {
                format!(
                    " The show's focus on {genres} is close to {}'s own work.",
                    context.guest.name
                )
            };
            format!("Your recent episode \"{episode}\" of {show} stayed with me.{focus}")
        }
    }
}

fn introduction(context: &OutreachContext, options: &OutreachOptions) -> String {
    let guest = &context.guest;
    let company = guest
        .company_name
        .as_deref()
        .map(|company| format!(" of {company}"))
        .unwrap_or_default();
    let mut text = match options.perspective {
        OutreachPerspective::First => format!("I'm {}{company}.", guest.name),
        OutreachPerspective::Third => {
            format!("I'm writing on behalf of {}{company}.", guest.name)
        }
    };
    if options.email_length != EmailLength::Short
        && let Some(bio) = guest
            .short_bio
            .as_deref()
            .filter(|bio| !bio.trim().is_empty())
    {
        text.push(' ');
        text.push_str(bio.trim());
    }
    text
}

fn details(context: &OutreachContext, options: &OutreachOptions) -> String {
    let mut lines = Vec::new();
    if options.email_length == EmailLength::Long
        && let Some(expertise) = context.guest.expertise.as_deref()
    {
        let who = match options.perspective {
            OutreachPerspective::First => "My",
            OutreachPerspective::Third => "Their",
        };
        lines.push(format!("\n{who} background: {expertise}."));
    }
    if options.generation_mode == GenerationMode::Advanced {
        let angles: Vec<String> = context
            .guest
            .topics
            .iter()
            .zip(
                context
                    .podcast_genres
                    .iter()
                    .chain(std::iter::repeat(&context.podcast_title)),
            )
            .take(3)
            .map(|(topic, genre)| format!("- {topic}, for a {genre} audience"))
            .collect();
        if !angles.is_empty() {
            lines.push(format!("\nSuggested angles:\n{}", angles.join("\n")));
        }
    }
    lines.join("\n")
}

fn call_to_action(options: &OutreachOptions) -> &'static str {
    match (options.call_to_action_style, options.perspective) {
        (CallToActionStyle::Light, _) => "If it sounds interesting, I'd be glad to share more.",
        (CallToActionStyle::Medium, OutreachPerspective::First) => {
            "Would you be open to having me on the show?"
        }
        (CallToActionStyle::Medium, OutreachPerspective::Third) => {
            "Would you be open to having them on the show?"
        }
        (CallToActionStyle::Heavy, _) => {
            "Could we find a time in the next two weeks to record? I can send a few dates today."
        }
    }
}

fn topic_list(context: &OutreachContext) -> String {
    let topics: Vec<String> = if context.guest.topics.is_empty() {
        vec![topics_phrase(context)]
    } else {
        context.guest.topics.clone()
    };
    topics
        .iter()
        .map(|topic| format!("- {topic}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The placeholders a template may use; each is replaced when an email is written.
pub const PLACEHOLDERS: [&str; 12] = [
    "[Host First Name]",
    "[Podcast Name]",
    "[Recent Episode]",
    "[Guest Name]",
    "[Company Name]",
    "[Sender Name]",
    "[Topics]",
    "[Topic List]",
    "[Hook]",
    "[Introduction]",
    "[Details]",
    "[Call To Action]",
];

/// Replaces every placeholder of `template` with its value for `context` and
/// `options`; the host's first name falls back to "there".
pub fn fill_placeholders(
    template: &str,
    context: &OutreachContext,
    options: &OutreachOptions,
) -> String {
    let values: [(&str, String); 12] = [
        (
            "[Host First Name]",
            context
                .host_first_name
                .clone()
                .unwrap_or_else(|| "there".to_owned()),
        ),
        ("[Podcast Name]", context.podcast_title.clone()),
        (
            "[Recent Episode]",
            context
                .recent_episode_title
                .clone()
                .unwrap_or_else(|| "your latest episode".to_owned()),
        ),
        ("[Guest Name]", context.guest.name.clone()),
        (
            "[Company Name]",
            context
                .guest
                .company_name
                .clone()
                .unwrap_or_else(|| "their company".to_owned()),
        ),
        ("[Sender Name]", context.sender_name.clone()),
        ("[Topics]", topics_phrase(context)),
        ("[Topic List]", topic_list(context)),
        ("[Hook]", hook(context, options.personalization_level)),
        ("[Introduction]", introduction(context, options)),
        ("[Details]", details(context, options)),
        ("[Call To Action]", call_to_action(options).to_owned()),
    ];
    let mut text = template.to_owned();
    for (placeholder, value) in values {
        text = text.replace(placeholder, &value);
    }
    collapse_blank_lines(&text)
}

fn collapse_blank_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0;
    for line in text.lines() {
        if line.trim().is_empty() {
            blank_run += 1;
            if blank_run > 1 {
                continue;
            }
        } else {
            blank_run = 0;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.trim().to_owned()
}

/// Writes an outreach email: `(subject, body)`. A custom template text replaces the
/// built-in body of `kind`; the subject always comes from `kind`.
pub fn compose_outreach(
    kind: OutreachTemplateKind,
    custom_template: Option<&str>,
    context: &OutreachContext,
    options: &OutreachOptions,
) -> (String, String) {
    let subject = fill_placeholders(subject_text(kind), context, options);
    let body = fill_placeholders(
        custom_template.unwrap_or(template_text(kind)),
        context,
        options,
    );
    (subject, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> OutreachContext {
        OutreachContext {
            host_first_name: host_first_name(&["Maria Lopez".into()], Some("Lopez Media")),
            podcast_title: "Night Garden".into(),
            recent_episode_title: Some("Moths and Moonflowers".into()),
            podcast_genres: vec!["science".into(), "nature".into()],
            guest: OutreachGuestInfo {
                name: "Sam Reed".into(),
                company_name: Some("Pollinate".into()),
                short_bio: Some("Sam studies night pollinators.".into()),
                expertise: Some("twenty years of field ecology".into()),
                topics: vec!["urban moths".into(), "light pollution".into()],
            },
            sender_name: "Ada".into(),
        }
    }

    fn options(
        perspective: OutreachPerspective,
        length: EmailLength,
        level: PersonalizationLevel,
    ) -> OutreachOptions {
        OutreachOptions {
            perspective,
            email_length: length,
            call_to_action_style: CallToActionStyle::Medium,
            personalization_level: level,
            generation_mode: GenerationMode::Basic,
            outreach_template_id: None,
        }
    }

    #[test]
    fn every_template_fills_every_placeholder() {
        for &kind in OutreachTemplateKind::ALL {
            let (subject, body) = compose_outreach(
                kind,
                None,
                &context(),
                &options(
                    OutreachPerspective::First,
                    EmailLength::Long,
                    PersonalizationLevel::Heavy,
                ),
            );
            assert!(
                !subject.contains('[') && !body.contains('['),
                "{kind}: {body}"
            );
            assert!(body.starts_with("Hi Maria"), "{kind}: {body}");
            assert!(body.contains("Night Garden") || subject.contains("Night Garden"));
            assert!(body.ends_with("Ada"), "{kind}: {body}");
        }
    }

    #[test]
    fn personalization_decides_whether_the_recent_episode_is_named() {
        let light = options(
            OutreachPerspective::First,
            EmailLength::Medium,
            PersonalizationLevel::Light,
        );
        let medium = options(
            OutreachPerspective::First,
            EmailLength::Medium,
            PersonalizationLevel::Medium,
        );
        let (_, light_body) =
            compose_outreach(OutreachTemplateKind::Default, None, &context(), &light);
        let (_, medium_body) =
            compose_outreach(OutreachTemplateKind::Default, None, &context(), &medium);
        assert!(!light_body.contains("Moths and Moonflowers"));
        assert!(medium_body.contains("\"Moths and Moonflowers\""));
    }

    #[test]
    fn perspective_and_length_change_the_introduction() {
        let third = options(
            OutreachPerspective::Third,
            EmailLength::Short,
            PersonalizationLevel::Light,
        );
        let (_, body) = compose_outreach(OutreachTemplateKind::Default, None, &context(), &third);
        assert!(body.contains("on behalf of Sam Reed of Pollinate"));
        assert!(body.contains("having them on the show"));
        assert!(
            !body.contains("night pollinators"),
            "short emails leave the bio out"
        );
    }

    #[test]
    fn host_first_name_skips_non_names() {
        assert_eq!(
            host_first_name(&[], Some("Dr. Jane Roe")),
            Some("Jane".into())
        );
        assert_eq!(host_first_name(&[], None), None);
        assert_eq!(
            host_first_name(&["  Lee  Chan ".into()], None),
            Some("Lee".into())
        );
        assert_eq!(
            host_first_name(&["123".into()], Some("Jo Park")),
            Some("Jo".into())
        );
    }
}
