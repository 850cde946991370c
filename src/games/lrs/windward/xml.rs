//! A small, bounded element tree over quick-xml, enough for the documents of the protocol:
//! one root element, attributes, child elements and text. XML declarations, comments,
//! processing instructions, a byte-order mark and whitespace between elements (pretty-printed
//! input) are accepted and ignored.
//!
//! Every byte parsed here comes from a bot, so the tree is flat and bounded: its elements
//! live in one `Vec` in document order, each knowing its children by index and where its
//! subtree ends. Nothing parses, searches or drops it recursively, so no document can
//! exhaust the stack, and the limits below keep its memory a small multiple of the input.
//! A document beyond a limit is an error like any malformed one.

use quick_xml::Reader;
use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};

/// Deepest nesting accepted; the root is at depth 1. The protocol's messages nest five deep.
pub(crate) const MAX_DEPTH: usize = 64;
/// Most elements in one document: a turn message on the largest board (64 x 64 squares,
/// each with a belt or laser) has about 12,000.
pub(crate) const MAX_ELEMENTS: usize = 65_536;
/// Most attributes on one element (the protocol's have at most 7). Also bounds quick-xml's
/// duplicate check, which compares each attribute with the ones before it.
pub(crate) const MAX_ATTRIBUTES: usize = 32;
/// Longest element or attribute name, in bytes.
pub(crate) const MAX_NAME: usize = 64;
/// Longest attribute value, in bytes, before and after entities are replaced.
pub(crate) const MAX_VALUE: usize = 4 * 1024;
/// Most text kept inside one element, in bytes (an avatar, base64 of a 32 x 32 PNG, is a
/// few kilobytes).
pub(crate) const MAX_TEXT: usize = 64 * 1024;

/// One element of a [`Document`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    /// Indices of the child elements, in document order.
    children: Vec<usize>,
    /// One past the index of the last element of this subtree: the subtree is
    /// `index..end` of the document's elements.
    end: usize,
    /// Text directly inside the element (concatenated, untrimmed).
    text: String,
}

/// A parsed document: its elements in document order, the root first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Document {
    elements: Vec<Element>,
}

/// One element of a document, borrowed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node<'a> {
    doc: &'a Document,
    index: usize,
}

impl Document {
    /// The root element.
    pub fn root(&self) -> Node<'_> {
        Node {
            doc: self,
            index: 0,
        }
    }
}

impl<'a> Node<'a> {
    fn element(&self) -> &'a Element {
        &self.doc.elements[self.index]
    }

    fn at(&self, index: usize) -> Node<'a> {
        Node {
            doc: self.doc,
            index,
        }
    }

    /// The element's name.
    pub fn name(&self) -> &'a str {
        &self.element().name
    }

    /// The text directly inside the element.
    pub fn text(&self) -> &'a str {
        &self.element().text
    }

    /// The value of an attribute.
    pub fn attr(&self, name: &str) -> Option<&'a str> {
        self.element()
            .attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first child element with this name.
    pub fn child(&self, name: &str) -> Option<Node<'a>> {
        self.children_named(name).next()
    }

    /// The child elements with this name, in document order.
    pub fn children_named<'n>(&self, name: &'n str) -> impl Iterator<Item = Node<'a>> + 'n
    where
        'a: 'n,
    {
        let node = *self;
        self.element()
            .children
            .iter()
            .map(move |&i| node.at(i))
            .filter(move |c| c.name() == name)
    }

    /// Every descendant element with this name, in document order: a slice of the
    /// document, as a subtree is contiguous.
    pub fn descendants_named<'n>(&self, name: &'n str) -> impl Iterator<Item = Node<'a>> + 'n
    where
        'a: 'n,
    {
        let node = *self;
        (self.index + 1..self.element().end)
            .map(move |i| node.at(i))
            .filter(move |c| c.name() == name)
    }
}

/// A name, checked against [`MAX_NAME`].
fn name_of(raw: &str) -> Result<String, String> {
    if raw.len() > MAX_NAME {
        return Err(format!("a name longer than {MAX_NAME} bytes"));
    }
    Ok(raw.to_owned())
}

fn element(e: &BytesStart<'_>) -> Result<Element, String> {
    let mut node = Element {
        name: name_of(e.name().as_ref())?,
        ..Element::default()
    };
    for attr in e.attributes() {
        if node.attrs.len() == MAX_ATTRIBUTES {
            return Err(format!(
                "<{}> has more than {MAX_ATTRIBUTES} attributes",
                node.name
            ));
        }
        let attr = attr.map_err(|err| err.to_string())?;
        if attr.value.len() > MAX_VALUE {
            return Err(format!(
                "<{}> has an attribute value longer than {MAX_VALUE} bytes",
                node.name
            ));
        }
        let value = attr
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(|err| err.to_string())?;
        if value.len() > MAX_VALUE {
            return Err(format!(
                "<{}> has an attribute value longer than {MAX_VALUE} bytes",
                node.name
            ));
        }
        node.attrs
            .push((name_of(attr.key.as_ref())?, value.into_owned()));
    }
    Ok(node)
}

/// The value of a predefined entity or character reference (`amp`, `#65`, `#x41`). Only
/// characters XML 1.0 allows: no NUL or other C0 control but tab, newline and return.
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
            char::from_u32(n).filter(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
        }
    }
}

/// The document being built: the elements so far and the path of open ones.
struct Builder {
    elements: Vec<Element>,
    /// Indices of the open elements, outermost first.
    open: Vec<usize>,
}

impl Builder {
    /// Adds an element under the innermost open one (or as the root); opens it unless it
    /// is empty (`<a/>`).
    fn add(&mut self, element: Element, empty: bool) -> Result<(), String> {
        if self.open.is_empty() && !self.elements.is_empty() {
            return Err("more than one root element".to_owned());
        }
        if self.open.len() >= MAX_DEPTH {
            return Err(format!("elements nested more than {MAX_DEPTH} deep"));
        }
        if self.elements.len() >= MAX_ELEMENTS {
            return Err(format!("more than {MAX_ELEMENTS} elements"));
        }
        let index = self.elements.len();
        if let Some(&parent) = self.open.last() {
            self.elements[parent].children.push(index);
        }
        self.elements.push(Element {
            end: index + 1,
            ..element
        });
        if !empty {
            self.open.push(index);
        }
        Ok(())
    }

    fn close(&mut self) -> Result<(), String> {
        let index = self.open.pop().ok_or("unexpected closing tag")?;
        self.elements[index].end = self.elements.len();
        Ok(())
    }

    /// Appends text to the innermost open element; whitespace outside the root is ignored.
    fn text(&mut self, text: &str) -> Result<(), String> {
        let Some(&index) = self.open.last() else {
            if text.trim().is_empty() {
                return Ok(());
            }
            return Err(format!("text outside the root element: {:?}", text.trim()));
        };
        let kept = &mut self.elements[index].text;
        if kept.len() + text.len() > MAX_TEXT {
            return Err(format!(
                "<{}> holds more than {MAX_TEXT} bytes of text",
                self.elements[index].name
            ));
        }
        kept.push_str(text);
        Ok(())
    }
}

/// Parses a document. The error is a human-readable description.
pub(crate) fn parse(xml: &str) -> Result<Document, String> {
    let xml = xml.strip_prefix('\u{feff}').unwrap_or(xml);
    let mut reader = Reader::from_str(xml);
    let mut doc = Builder {
        elements: Vec::new(),
        open: Vec::new(),
    };
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("malformed XML at byte {}: {e}", reader.error_position()))?;
        match event {
            Event::Start(e) => doc.add(element(&e)?, false)?,
            Event::Empty(e) => doc.add(element(&e)?, true)?,
            Event::End(_) => doc.close()?,
            Event::Text(t) => doc.text(&t.xml10_content())?,
            Event::CData(t) => {
                if doc.open.is_empty() {
                    return Err("CDATA outside the root element".to_owned());
                }
                doc.text(&t.xml10_content())?;
            }
            Event::GeneralRef(r) => {
                let name = r.xml10_content();
                let c = entity(&name).ok_or_else(|| format!("unknown entity &{name};"))?;
                if doc.open.is_empty() {
                    return Err("text outside the root element".to_owned());
                }
                doc.text(c.encode_utf8(&mut [0; 4]))?;
            }
            // The protocol declares no entities: a document type is refused rather than
            // read, so no entity definition is ever expanded.
            Event::DocType(_) => return Err("a document type declaration".to_owned()),
            Event::Decl(_) | Event::Comment(_) | Event::PI(_) => {}
            Event::Eof => {
                if let Some(&open) = doc.open.last() {
                    return Err(format!(
                        "the document ends inside <{}>",
                        doc.elements[open].name
                    ));
                }
                if doc.elements.is_empty() {
                    return Err("no element".to_owned());
                }
                return Ok(Document {
                    elements: doc.elements,
                });
            }
        }
    }
}

/// Escapes a value for use inside a double-quoted attribute or as text.
pub(crate) fn escape(value: &str) -> String {
    crate::games::shared::markup::escape(value, "&apos;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(levels: usize) -> String {
        format!("{}{}", "<a>".repeat(levels), "</a>".repeat(levels))
    }

    #[test]
    fn parses_declaration_comments_and_pretty_printing() {
        let doc = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-16\"?>\n<!-- hi -->\n<a x=\"1\">\n  <b y=\"&amp;2\"/>\n  <c>t&lt;u</c>\n</a>\n";
        let doc = parse(doc).unwrap();
        let root = doc.root();
        assert_eq!(root.name(), "a");
        assert_eq!(root.attr("x"), Some("1"));
        assert_eq!(root.child("b").unwrap().attr("y"), Some("&2"));
        assert_eq!(root.child("c").unwrap().text(), "t<u");
    }

    #[test]
    fn children_and_descendants_keep_document_order() {
        let doc =
            parse("<r><c n=\"1\"><c n=\"2\"/></c><d><c n=\"3\"/></d><c n=\"4\"/></r>").unwrap();
        let root = doc.root();
        let n = |it: &mut dyn Iterator<Item = Node<'_>>| -> Vec<String> {
            it.map(|c| c.attr("n").unwrap_or_default().to_owned())
                .collect()
        };
        assert_eq!(n(&mut root.children_named("c")), ["1", "4"]);
        assert_eq!(n(&mut root.descendants_named("c")), ["1", "2", "3", "4"]);
        let d = root.child("d").unwrap();
        assert_eq!(n(&mut d.descendants_named("c")), ["3"]);
    }

    #[test]
    fn rejects_broken_documents() {
        for doc in [
            "",
            "garbage",
            "<a>",
            "<a></b>",
            "<a/><b/>",
            "<a x=1/>",
            "<a/>junk",
            "<a>&bogus;</a>",
        ] {
            assert!(parse(doc).is_err(), "{doc:?} was accepted");
        }
    }

    #[test]
    fn nesting_is_limited_to_max_depth() {
        assert!(parse(&nested(MAX_DEPTH)).is_ok());
        let err = parse(&nested(MAX_DEPTH + 1)).unwrap_err();
        assert!(err.contains("nested more than 64 deep"), "{err}");
        // Far deeper than any stack would take recursively, unclosed or closed.
        assert!(parse(&nested(1_000_000)).is_err());
        assert!(parse(&"<a>".repeat(1_000_000)).is_err());
    }

    #[test]
    fn oversized_names_values_attribute_lists_and_texts_are_errors() {
        let long = "x".repeat(MAX_VALUE + 1);
        for doc in [
            format!("<a v=\"{long}\"/>"),
            // Entities that grow past the limit when replaced.
            format!("<a v=\"{}\"/>", "&amp;".repeat(MAX_VALUE + 1)),
            format!("<{}/>", "n".repeat(MAX_NAME + 1)),
            format!("<a {}=\"1\"/>", "n".repeat(MAX_NAME + 1)),
            format!(
                "<a {}/>",
                (0..=MAX_ATTRIBUTES)
                    .map(|i| format!("k{i}=\"v\""))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            format!("<a>{}</a>", "t".repeat(MAX_TEXT + 1)),
            format!("<a>{}</a>", "<b/>".repeat(MAX_ELEMENTS)),
        ] {
            let shown = &doc[..doc.len().min(80)];
            assert!(parse(&doc).is_err(), "{shown:?}... was accepted");
        }
        // Just within every limit.
        let ok = format!(
            "<a {}>{}</a>",
            (0..MAX_ATTRIBUTES)
                .map(|i| format!("k{i}=\"{}\"", "v".repeat(MAX_VALUE)))
                .collect::<Vec<_>>()
                .join(" "),
            "t".repeat(MAX_TEXT)
        );
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn entity_definitions_and_forbidden_characters_are_errors() {
        let bomb = "<!DOCTYPE a [<!ENTITY x \"xxxxxxxx\"><!ENTITY y \"&x;&x;&x;&x;\">]><a>&y;</a>";
        assert!(parse(bomb).is_err());
        assert!(parse("<a>&#0;</a>").is_err());
        assert!(parse("<a>&#x1;</a>").is_err());
        assert!(parse("<a v=\"&y;\"/>").is_err());
        assert_eq!(
            parse("<a>&#65;&#x42;&#10;</a>").unwrap().root().text(),
            "AB\n"
        );
    }

    #[test]
    fn escape_round_trips() {
        let v = "a&b<c>\"d'";
        let doc = parse(&format!("<a v=\"{}\">{}</a>", escape(v), escape(v))).unwrap();
        assert_eq!(doc.root().attr("v"), Some(v));
        assert_eq!(doc.root().text(), v);
    }
}
