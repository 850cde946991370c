//! Defines [`escape`]: text made safe inside the elements and quoted attributes of XML and
//! HTML, which the Windward protocol's messages and the replay pages both write. They
//! differ only in the apostrophe's entity: XML has `&apos;`, old HTML readers know
//! `&#39;` only.

/// `text` with `&`, `<`, `>`, `"` and `'` written as entities, `'` as `apostrophe`.
pub fn escape(text: &str, apostrophe: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str(apostrophe),
            c => out.push(c),
        }
    }
    out
}
