//! Renderings of the simple markdown the workflows write (`#`/`##` headings, `- `
//! list items, paragraphs): escaped HTML, a PDF with the text laid out on A4 pages in
//! the standard Helvetica fonts, and a Word document (DOCX, written by `docx-rs`).

/// The markdown as a standalone HTML page.
pub fn markdown_to_html(title: &str, markdown: &str) -> String {
    let mut body = String::new();
    let mut in_list = false;
    for line in markdown.lines() {
        let line = line.trim_end();
        let is_item = line.starts_with("- ");
        if in_list && !is_item {
            body.push_str("</ul>\n");
            in_list = false;
        }
        if let Some(text) = line.strip_prefix("## ") {
            body.push_str(&format!("<h2>{}</h2>\n", escape(text)));
        } else if let Some(text) = line.strip_prefix("# ") {
            body.push_str(&format!("<h1>{}</h1>\n", escape(text)));
        } else if let Some(text) = line.strip_prefix("- ") {
            if !in_list {
                body.push_str("<ul>\n");
                in_list = true;
            }
            body.push_str(&format!("<li>{}</li>\n", escape(text)));
        } else if !line.trim().is_empty() {
            body.push_str(&format!("<p>{}</p>\n", escape(line)));
        }
    }
    if in_list {
        body.push_str("</ul>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// `&`, `<`, `>` and quotes escaped.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The markdown as a Word document: `#` as the title (style Title), `##` as headings
/// (Heading 1), `- ` items as bulleted paragraphs, other lines as paragraphs.
pub fn markdown_to_docx(markdown: &str) -> Result<Vec<u8>, String> {
    use docx_rs::{Docx, LineSpacing, Paragraph, Run, RunFonts, Style, StyleType};
    let mut document = Docx::new()
        .add_style(Style::new("Normal", StyleType::Paragraph).name("Normal"))
        .add_style(
            Style::new("Title", StyleType::Paragraph)
                .name("Title")
                .size(40)
                .bold(),
        )
        .add_style(
            Style::new("Heading1", StyleType::Paragraph)
                .name("Heading 1")
                .size(28)
                .bold(),
        )
        .default_fonts(RunFonts::new().ascii("Calibri").hi_ansi("Calibri"))
        .default_size(22);
    let spacing = LineSpacing::new().after(120);
    for line in markdown.lines() {
        let line = line.trim_end();
        let paragraph = if let Some(text) = line.strip_prefix("## ") {
            Paragraph::new()
                .add_run(Run::new().add_text(text))
                .style("Heading1")
        } else if let Some(text) = line.strip_prefix("# ") {
            Paragraph::new()
                .add_run(Run::new().add_text(text))
                .style("Title")
        } else if let Some(text) = line.strip_prefix("- ") {
            Paragraph::new()
                .add_run(Run::new().add_text(format!("\u{2022} {text}")))
                .style("Normal")
                .indent(
                    Some(360),
                    Some(docx_rs::SpecialIndentType::Hanging(240)),
                    None,
                    None,
                )
        } else if line.trim().is_empty() {
            continue;
        } else {
            Paragraph::new()
                .add_run(Run::new().add_text(line))
                .style("Normal")
        };
        document = document.add_paragraph(paragraph.line_spacing(spacing.clone()));
    }
    let mut bytes = std::io::Cursor::new(Vec::new());
    document
        .build()
        .pack(&mut bytes)
        .map_err(|error| error.to_string())?;
    Ok(bytes.into_inner())
}

const PAGE_WIDTH: f64 = 595.0;
const PAGE_HEIGHT: f64 = 842.0;
const MARGIN: f64 = 56.0;
const LINES_PER_PAGE: usize = 52;
const WRAP_CHARS: usize = 90;

/// Words wrapped at `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// A PDF string literal: Latin-1 bytes, with `\`, `(` and `)` escaped; characters
/// outside Latin-1 become `?`.
fn pdf_string(text: &str) -> String {
    let mut out = String::from("(");
    for c in text.chars() {
        match c {
            '\\' | '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 => out.push(' '),
            c if (c as u32) < 0x7f => out.push(c),
            c if (0xa0..=0xff).contains(&(c as u32)) => {
                out.push_str(&format!("\\{:03o}", c as u32))
            }
            '…' => out.push_str("..."),
            '•' => out.push('-'),
            _ => out.push('?'),
        }
    }
    out.push(')');
    out
}

/// The markdown as a PDF document.
pub fn markdown_to_pdf(markdown: &str) -> Vec<u8> {
    // (font, size, text) per line.
    let mut lines: Vec<(&str, f64, String)> = Vec::new();
    for line in markdown.lines() {
        if let Some(text) = line.strip_prefix("## ") {
            lines.push(("F2", 13.0, text.to_owned()));
        } else if let Some(text) = line.strip_prefix("# ") {
            lines.push(("F2", 18.0, text.to_owned()));
        } else if line.trim().is_empty() {
            lines.push(("F1", 11.0, String::new()));
        } else {
            let (prefix, text) = match line.strip_prefix("- ") {
                Some(text) => ("- ", text),
                None => ("", line),
            };
            for (index, part) in wrap(text, WRAP_CHARS).into_iter().enumerate() {
                let lead = if index == 0 { prefix } else { "  " };
                lines.push(("F1", 11.0, format!("{lead}{part}")));
            }
        }
    }
    let pages: Vec<&[(&str, f64, String)]> = if lines.is_empty() {
        vec![&[]]
    } else {
        lines.chunks(LINES_PER_PAGE).collect()
    };
    let mut objects: Vec<String> = Vec::new();
    // 1 catalog, 2 pages, 3 F1, 4 F2, then per page: page, content.
    let page_ids: Vec<usize> = (0..pages.len()).map(|i| 5 + 2 * i).collect();
    objects.push("<< /Type /Catalog /Pages 2 0 R >>".to_owned());
    objects.push(format!(
        "<< /Type /Pages /Kids [{}] /Count {} >>",
        page_ids
            .iter()
            .map(|id| format!("{id} 0 R"))
            .collect::<Vec<_>>()
            .join(" "),
        pages.len()
    ));
    objects.push(
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_owned(),
    );
    objects.push(
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
            .to_owned(),
    );
    for (index, page) in pages.iter().enumerate() {
        let mut content = String::from("BT\n");
        let mut y = PAGE_HEIGHT - MARGIN;
        for (font, size, text) in page.iter() {
            y -= size * 1.35;
            content.push_str(&format!(
                "/{font} {size} Tf 1 0 0 1 {MARGIN} {y:.1} Tm {} Tj\n",
                pdf_string(text)
            ));
        }
        content.push_str("ET\n");
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_WIDTH} {PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {} 0 R >>",
            page_ids[index] + 1
        ));
        objects.push(format!(
            "<< /Length {} >>\nstream\n{content}endstream",
            content.len()
        ));
    }
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (index, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", index + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_and_structures() {
        let html = markdown_to_html("A & B", "# A & B\n\n- one\n- <two>\n\nText");
        assert!(html.contains("<title>A &amp; B</title>"));
        assert!(html.contains("<ul>\n<li>one</li>\n<li>&lt;two&gt;</li>\n</ul>"));
        assert!(html.contains("<p>Text</p>"));
    }

    #[test]
    fn pdf_cross_references_point_at_their_objects() {
        let pdf = markdown_to_pdf(&format!("# Title (x)\n\n{}", "- item\n".repeat(120)));
        let text = String::from_utf8_lossy(&pdf).into_owned();
        assert!(text.starts_with("%PDF-1.4"));
        assert!(text.contains("(Title \\(x\\)) Tj"));
        let xref_at: usize = text
            .rsplit("startxref\n")
            .next()
            .and_then(|rest| rest.lines().next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!(text[xref_at..].starts_with("xref"));
        // Every offset in the table starts an object with the right number.
        for (number, line) in text[xref_at..]
            .lines()
            .skip(3)
            .take_while(|l| l.ends_with(" n "))
            .enumerate()
        {
            let offset: usize = line[..10].parse().unwrap();
            assert!(
                text[offset..].starts_with(&format!("{} 0 obj", number + 1)),
                "{line}"
            );
        }
        assert!(text.contains("/Count 3"), "120 items take three pages");
    }
}
