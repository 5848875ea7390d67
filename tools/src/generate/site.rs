//! A show's small website: home (directory links, latest episodes, socials), about
//! (hosts), contact (form, emails in several obfuscations, phones), a cover image,
//! robots.txt and sitemap.xml, under `sites/<slug>/`.

use std::fmt::Write;

use super::Context;
use super::STREAM_SITE;
use super::episode::Episode;
use super::links::EmailStyle;
use super::rng::Rng;
use super::show::Show;
use super::text::escape;

/// A site's files: (file name, contents).
pub fn render(context: &Context, show: &Show) -> Vec<(&'static str, String)> {
    let mut rng = Rng::for_stream(&[context.seed, STREAM_SITE, show.index as u64]);
    vec![
        ("index.html", home(context, show, &mut rng)),
        ("about.html", about(context, show, &mut rng)),
        ("contact.html", contact(context, show)),
        ("robots.txt", robots(context, show, &mut rng)),
        ("sitemap.xml", sitemap(context, show)),
        ("cover.svg", cover(show)),
    ]
}

fn page_head(out: &mut String, show: &Show, page_title: &str, description: &str) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<meta name=\"description\" content=\"{}\">\n",
        show.language.code,
        escape(page_title),
        escape(description)
    );
}

fn nav(out: &mut String) {
    out.push_str(
        "<header><nav><a href=\"./\">Home</a> | <a href=\"about.html\">About</a> | \
         <a href=\"contact.html\">Contact</a></nav></header>\n",
    );
}

fn footer(out: &mut String, show: &Show, rng: &mut Rng, context: &Context) {
    out.push_str("<footer>\n<ul class=\"social\">\n");
    for (kind, url) in &show.socials {
        let _ = writeln!(
            out,
            "<li><a href=\"{}\" rel=\"me noopener\" target=\"_blank\">{kind}</a></li>",
            escape(url)
        );
    }
    out.push_str("</ul>\n");
    if rng.chance(0.3) {
        let page = escape(&show.site_url(context));
        let _ = writeln!(
            out,
            "<p class=\"share\">Share: <a href=\"https://twitter.com/intent/tweet?url={page}\">Tweet</a> \
             <a href=\"https://www.facebook.com/sharer/sharer.php?u={page}\">Share on Facebook</a> \
             <a href=\"https://www.linkedin.com/shareArticle?mini=true&amp;url={page}\">LinkedIn</a></p>"
        );
    }
    let _ = writeln!(
        out,
        "<p>&copy; {} {}. All rights reserved.</p>\n</footer>\n</body>\n</html>",
        show.last_published.format("%Y"),
        escape(&show.author)
    );
}

fn home(context: &Context, show: &Show, rng: &mut Rng) -> String {
    let mut out = String::with_capacity(4_096);
    page_head(&mut out, show, &show.title, &show.description);
    let _ = write!(
        out,
        "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"{}\" href=\"{}\">\n\
         <meta property=\"og:image\" content=\"{}\">\n</head>\n<body>\n",
        escape(&show.title),
        Show::feed_url(context, show.index),
        show.image_url(context)
    );
    nav(&mut out);
    let _ = write!(
        out,
        "<main>\n<img src=\"cover.svg\" alt=\"{title} cover art\" width=\"300\" height=\"300\">\n\
         <h1>{title}</h1>\n<p>{description}</p>\n<section id=\"listen\">\n<h2>Listen on</h2>\n<ul>\n",
        title = escape(&show.title),
        description = escape(&show.description)
    );
    for (kind, url) in &show.directories {
        let _ = writeln!(
            out,
            "<li><a href=\"{}\">{}</a></li>",
            escape(url),
            directory_label(kind.as_str())
        );
    }
    let _ = write!(
        out,
        "<li><a href=\"{}\">RSS Feed</a></li>\n</ul>\n</section>\n<section id=\"episodes\">\n<h2>Latest episodes</h2>\n<ol>\n",
        Show::feed_url(context, show.index)
    );
    let newest = show.episode_count;
    for number in (newest.saturating_sub(4).max(1)..=newest).rev() {
        let episode = Episode::generate(context, show, number);
        let _ = writeln!(
            out,
            "<li id=\"episode-{number}\"><h3>{}</h3><time datetime=\"{}\">{}</time><p>{}</p></li>",
            escape(&episode.title),
            episode.published.format("%Y-%m-%d"),
            episode.published.format("%B %-d, %Y"),
            escape(&episode.summary)
        );
    }
    out.push_str("</ol>\n</section>\n</main>\n");
    footer(&mut out, show, rng, context);
    out
}

fn about(context: &Context, show: &Show, rng: &mut Rng) -> String {
    let mut out = String::with_capacity(2_048);
    page_head(
        &mut out,
        show,
        &format!("About | {}", show.title),
        &show.description,
    );
    out.push_str("</head>\n<body>\n");
    nav(&mut out);
    let _ = write!(
        out,
        "<main>\n<h1>About {}</h1>\n<p>{}</p>\n<h2>Hosts</h2>\n",
        escape(&show.title),
        escape(&show.description)
    );
    for host in &show.hosts {
        let topic = rng.pick(show.theme.topics);
        let _ = writeln!(
            out,
            "<div class=\"host\"><h3>{name}</h3><p>{name} has spent more than a decade working on {topic} \
             and started the show to share what they learned.</p></div>",
            name = escape(host)
        );
    }
    if let Some(place) = show.place {
        let _ = writeln!(out, "<p>Recorded in {}.</p>", escape(place.name));
    }
    if !show.sponsors.is_empty() {
        out.push_str("<h2>Our sponsors</h2>\n<ul>\n");
        for sponsor in &show.sponsors {
            let _ = writeln!(
                out,
                "<li><a href=\"https://{}/\">{}</a></li>",
                sponsor.domain,
                escape(sponsor.name)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("<p>Want to be a guest or advertise? <a href=\"contact.html\">Get in touch</a>.</p>\n</main>\n");
    footer(&mut out, show, rng, context);
    out
}

fn contact(context: &Context, show: &Show) -> String {
    let mut out = String::with_capacity(2_048);
    page_head(
        &mut out,
        show,
        &format!("Contact | {}", show.title),
        "Get in touch with the show",
    );
    out.push_str("</head>\n<body>\n");
    nav(&mut out);
    out.push_str(
        "<main>\n<h1>Contact us</h1>\n\
         <form action=\"/contact\" method=\"post\" class=\"contact-form\">\n\
         <label>Name <input type=\"text\" name=\"name\" required></label>\n\
         <label>Email <input type=\"email\" name=\"email\" required></label>\n\
         <label>Message <textarea name=\"message\" rows=\"6\"></textarea></label>\n\
         <button type=\"submit\">Send</button>\n</form>\n<h2>Email</h2>\n<ul class=\"emails\">\n",
    );
    for (address, style) in &show.emails {
        let _ = writeln!(out, "<li>{}</li>", email_html(address, *style));
    }
    out.push_str("</ul>\n");
    if !show.phones.is_empty() {
        out.push_str("<h2>Phone</h2>\n<ul class=\"phones\">\n");
        for (position, phone) in show.phones.iter().enumerate() {
            if position % 2 == 0 {
                let _ = writeln!(
                    out,
                    "<li><a href=\"tel:{}\">{}</a></li>",
                    phone.e164,
                    escape(&phone.display)
                );
            } else {
                let _ = writeln!(out, "<li>Call or text: {}</li>", escape(&phone.display));
            }
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</main>\n");
    let mut footer_rng = Rng::for_stream(&[context.seed, STREAM_SITE, show.index as u64, 1]);
    footer(&mut out, show, &mut footer_rng, context);
    out
}

/// An email address written in `style`.
pub fn email_html(address: &str, style: EmailStyle) -> String {
    match style {
        EmailStyle::Plain => format!("<a href=\"mailto:{address}\">{address}</a>"),
        EmailStyle::AtDot => {
            let (local, domain) = address.split_once('@').unwrap_or((address, ""));
            format!("{local} [at] {}", domain.replace('.', " [dot] "))
        }
        EmailStyle::Entities => {
            let encoded: String = address
                .chars()
                .map(|c| format!("&#{};", u32::from(c)))
                .collect();
            format!("<a href=\"&#109;&#97;&#105;&#108;&#116;&#111;&#58;{encoded}\">{encoded}</a>")
        }
        EmailStyle::Percent => {
            let encoded: String = address.bytes().map(|b| format!("%{b:02X}")).collect();
            format!("<a href=\"mailto:{encoded}\">Email us</a>")
        }
    }
}

fn robots(context: &Context, show: &Show, rng: &mut Rng) -> String {
    let mut text = String::from("User-agent: *\n");
    text.push_str(if rng.chance(0.5) {
        "Disallow: /wp-admin/\n"
    } else {
        "Disallow:\n"
    });
    if rng.chance(0.2) {
        text.push_str("\nUser-agent: GPTBot\nDisallow: /\n");
    }
    let _ = writeln!(text, "\nSitemap: {}sitemap.xml", show.site_url(context));
    text
}

fn sitemap(context: &Context, show: &Show) -> String {
    let site = show.site_url(context);
    let mut text = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for page in ["", "about.html", "contact.html"] {
        let _ = writeln!(text, "<url><loc>{site}{page}</loc></url>");
    }
    text.push_str("</urlset>\n");
    text
}

fn cover(show: &Show) -> String {
    let hue = (show.index * 47) % 360;
    let initials: String = show
        .title
        .split_whitespace()
        .filter_map(|word| word.chars().next())
        .take(3)
        .collect();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"600\" viewBox=\"0 0 600 600\">\
         <rect width=\"600\" height=\"600\" fill=\"hsl({hue},55%,40%)\"/>\
         <text x=\"300\" y=\"340\" font-size=\"160\" text-anchor=\"middle\" fill=\"#fff\" \
         font-family=\"sans-serif\">{}</text></svg>\n",
        escape(&initials)
    )
}

fn directory_label(kind: &str) -> &str {
    match kind {
        "apple" => "Apple Podcasts",
        "spotify" => "Spotify",
        "amazonmusic" => "Amazon Music",
        "google" => "Google Podcasts",
        "iheartradio" => "iHeartRadio",
        "pocketcasts" => "Pocket Casts",
        "overcast" => "Overcast",
        "youtube" => "YouTube",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obfuscated_emails() {
        assert_eq!(
            email_html("a@b.com", EmailStyle::AtDot),
            "a [at] b [dot] com"
        );
        assert_eq!(
            email_html("a@b.co", EmailStyle::Percent),
            "<a href=\"mailto:%61%40%62%2E%63%6F\">Email us</a>"
        );
        assert!(email_html("a@b", EmailStyle::Entities).contains("&#97;&#64;&#98;"));
    }

    #[test]
    fn contact_page_has_a_form_and_every_plain_email() {
        let context = Context::new(4, "http://127.0.0.1:8900", 0.1);
        let show = Show::generate(&context, 2);
        let pages = render(&context, &show);
        let contact = &pages
            .iter()
            .find(|(name, _)| *name == "contact.html")
            .expect("contact page")
            .1;
        assert!(contact.contains("<form"));
        for (address, style) in &show.emails {
            if *style == EmailStyle::Plain {
                assert!(contact.contains(address.as_str()));
            }
        }
    }
}
