//! A minimal element tree over quick-xml, enough for the small documents of the protocol:
//! one root element, attributes, child elements and text. XML declarations, comments,
//! processing instructions, a byte-order mark and whitespace between elements (pretty-printed
//! input) are accepted and ignored.

use quick_xml::Reader;
use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};

/// One element.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Node {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Node>,
    /// Text directly inside the element (concatenated, untrimmed).
    pub text: String,
}

impl Node {
    /// The value of an attribute.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first child element with this name.
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The child elements with this name, in document order.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// Every descendant element with this name, in document order.
    pub fn descendants_named<'a>(&'a self, name: &str, out: &mut Vec<&'a Node>) {
        for c in &self.children {
            if c.name == name {
                out.push(c);
            }
            c.descendants_named(name, out);
        }
    }
}

fn element(e: &BytesStart<'_>) -> Result<Node, String> {
    let mut node = Node {
        name: e.name().as_ref().to_owned(),
        ..Node::default()
    };
    for attr in e.attributes() {
        let attr = attr.map_err(|err| err.to_string())?;
        let value = attr
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(|err| err.to_string())?;
        node.attrs
            .push((attr.key.as_ref().to_owned(), value.into_owned()));
    }
    Ok(node)
}

/// The value of a predefined entity or character reference (`amp`, `#65`, `#x41`).
fn entity(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => {
            let code = name.strip_prefix('#')?;
            let n = match code.strip_prefix('x').or_else(|| code.strip_prefix('X')) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => code.parse().ok()?,
            };
            char::from_u32(n)
        }
    }
}

/// Parses a document into its root element. The error is a human-readable description.
pub(crate) fn parse(xml: &str) -> Result<Node, String> {
    let xml = xml.strip_prefix('\u{feff}').unwrap_or(xml);
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<Node> = Vec::new();
    let mut root: Option<Node> = None;
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("malformed XML at byte {}: {e}", reader.error_position()))?;
        match event {
            Event::Start(e) => {
                if root.is_some() {
                    return Err("more than one root element".to_owned());
                }
                stack.push(element(&e)?);
            }
            Event::Empty(e) => {
                let node = element(&e)?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None if root.is_none() => root = Some(node),
                    None => return Err("more than one root element".to_owned()),
                }
            }
            Event::End(_) => {
                let node = stack.pop().ok_or("unexpected closing tag")?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => root = Some(node),
                }
            }
            Event::Text(t) => {
                let text = t.xml10_content();
                match stack.last_mut() {
                    Some(node) => node.text.push_str(&text),
                    None if text.trim().is_empty() => {}
                    None => {
                        return Err(format!("text outside the root element: {:?}", text.trim()));
                    }
                }
            }
            Event::CData(t) => match stack.last_mut() {
                Some(node) => node.text.push_str(&t.xml10_content()),
                None => return Err("CDATA outside the root element".to_owned()),
            },
            Event::GeneralRef(r) => {
                let name = r.xml10_content();
                let c = entity(&name).ok_or_else(|| format!("unknown entity &{name};"))?;
                match stack.last_mut() {
                    Some(node) => node.text.push(c),
                    None => return Err("text outside the root element".to_owned()),
                }
            }
            Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_) => {}
            Event::Eof => {
                if let Some(open) = stack.last() {
                    return Err(format!("the document ends inside <{}>", open.name));
                }
                return root.ok_or_else(|| "no element".to_owned());
            }
        }
    }
}

/// Escapes a value for use inside a double-quoted attribute or as text.
pub(crate) fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_declaration_comments_and_pretty_printing() {
        let doc = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-16\"?>\n<!-- hi -->\n<a x=\"1\">\n  <b y=\"&amp;2\"/>\n  <c>t&lt;u</c>\n</a>\n";
        let root = parse(doc).unwrap();
        assert_eq!(root.name, "a");
        assert_eq!(root.attr("x"), Some("1"));
        assert_eq!(root.child("b").unwrap().attr("y"), Some("&2"));
        assert_eq!(root.child("c").unwrap().text, "t<u");
    }

    #[test]
    fn rejects_broken_documents() {
        for doc in [
            "", "garbage", "<a>", "<a></b>", "<a/><b/>", "<a x=1/>", "<a/>junk",
        ] {
            assert!(parse(doc).is_err(), "{doc:?} was accepted");
        }
    }

    #[test]
    fn escape_round_trips() {
        let v = "a&b<c>\"d'";
        let root = parse(&format!("<a v=\"{}\">{}</a>", escape(v), escape(v))).unwrap();
        assert_eq!(root.attr("v"), Some(v));
        assert_eq!(root.text, v);
    }
}
