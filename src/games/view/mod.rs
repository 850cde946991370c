//! Defines the replay viewer page every game shares: one self-contained HTML file (styles,
//! the shared controls, the game's own drawing script and the game's data inlined) that
//! draws the board and animates a replayed game. Each game brings its [`Viewer`] (script and
//! score columns) and its data from its own folder.
//!
//! It must open from `file://` on a machine with no network, so nothing is loaded from
//! anywhere: a Content-Security-Policy of `default-src 'none'` makes that a guarantee,
//! not a habit. Each game inlines its data in a compact form (arrays, not the documented
//! `--json` trace) so a report with hundreds of replays stays small.

use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

const TEMPLATE: &str = include_str!("viewer.html");
const CSS: &str = include_str!("viewer.css");
/// The controls every viewer shares (play, pause, step, speed), before each game's script.
const CONTROLS_JS: &str = include_str!("controls.js");

/// What a game brings to the shared page: the script that draws and animates its data
/// (after the shared controls) and the columns of its score table.
#[derive(Debug, Clone, Copy)]
pub struct Viewer {
    /// The stem of its script's file where pages share one (`lrs` for `lrs.js`).
    pub name: &'static str,
    /// The game's drawing and animation script (`include_str!` of a file in its folder).
    pub script: &'static str,
    /// The score table's column headings.
    pub score_head: &'static [&'static str],
}

impl Viewer {
    /// The page of a game shown by its JSON trace: the script draws `trace`, with the teams'
    /// names by seat beside it.
    pub fn trace_page(&self, trace: &Value, info: &PageInfo) -> String {
        let data = serde_json::json!({ "seats": info.seats, "trace": trace });
        page(self, info, &data, None)
    }
}

/// What a replay page shows besides the game itself.
#[derive(Debug, Clone, Default)]
pub struct PageInfo {
    /// The page title, e.g. `westfield-high/final, game 3`.
    pub title: String,
    /// One line under the title: board, seed, engine version.
    pub meta: String,
    /// A link back (to the set's page in a report): address and text.
    pub back: Option<(String, String)>,
    /// Team name by seat.
    pub seats: Vec<String>,
    /// The scores stored for the game, when it came from a database, to show the check.
    pub stored_scores: Option<Vec<i32>>,
    /// Where the page finds the styles and scripts it shares with other replay pages (a
    /// relative folder ending in `/`, holding [`asset_files`]); `None` inlines them, for a
    /// page that stands alone.
    pub assets: Option<String>,
}

/// The files a folder of shared viewer assets holds for `viewer`'s pages: name and content.
pub fn asset_files(viewer: &Viewer) -> [(String, String); 2] {
    [
        ("viewer.css".to_string(), CSS.to_string()),
        (
            format!("{}.js", viewer.name),
            format!("{CONTROLS_JS}\n{}", viewer.script),
        ),
    ]
}

/// The policy of a page that inlines everything, and of one that loads its styles and
/// script from files beside it (`'self'`: the same folder tree, from `file://` too).
const INLINE_CSP: &str =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";
const LINKED_CSP: &str =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src data:";

/// The replay page of a game drawn by `viewer` from `data`; when `replayed` scores are
/// given the page shows whether they match `info.stored_scores`. The teams' names
/// (`info.seats`) reach every game's script the same way, beside the game's own data.
pub fn page(viewer: &Viewer, info: &PageInfo, data: &Value, replayed: Option<&[i32]>) -> String {
    let verdict = match (&info.stored_scores, replayed) {
        (Some(stored), Some(replayed)) if stored.as_slice() == replayed => {
            "<p class=\"verdict ok\" id=\"verdict\">Replayed scores match the stored result.</p>"
                .to_string()
        }
        (Some(stored), Some(replayed)) => format!(
            "<p class=\"verdict bad\" id=\"verdict\">REPLAY DIFFERS FROM THE STORED GAME: stored {}, replayed {}.</p>",
            escape(&format!("{stored:?}")),
            escape(&format!("{replayed:?}"))
        ),
        _ => String::new(),
    };
    let score_head: String = viewer
        .score_head
        .iter()
        .map(|h| format!("<th scope=\"col\">{}</th>", escape(h)))
        .collect();
    let back = info
        .back
        .as_ref()
        .map(|(href, text)| format!("<a href=\"{}\">{}</a>", escape(href), escape(text)))
        .unwrap_or_default();
    let (csp, style, script) = match &info.assets {
        None => (
            INLINE_CSP,
            format!("<style>{CSS}</style>"),
            format!("<script>{CONTROLS_JS}\n{}</script>", viewer.script),
        ),
        Some(dir) => (
            LINKED_CSP,
            format!(
                "<link rel=\"stylesheet\" href=\"{}viewer.css\">",
                escape(dir)
            ),
            format!(
                "<script src=\"{}{}.js\"></script>",
                escape(dir),
                viewer.name
            ),
        ),
    };
    let title = escape(&info.title);
    let meta = escape(&info.meta);
    let data = script_json(data);
    let seats = script_json(&Value::from(info.seats.clone()));
    fill_template(
        TEMPLATE,
        &[
            ("CSP", csp),
            ("STYLE", &style),
            ("TITLE", &title),
            ("META", &meta),
            ("BACK", &back),
            ("VERDICT", &verdict),
            ("SCORE_HEAD", &score_head),
            ("SCRIPT", &script),
            ("SEATS", &seats),
            ("DATA", &data),
        ],
    )
}

/// Replaces each `{{KEY}}` of `template` in one pass, so a value that happens to contain
/// `{{JS}}` (a team may call itself that) is left as it is.
fn fill_template(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}").and_then(|end| {
            let key = &after[..end];
            values
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| (v, end))
        }) {
            Some((value, end)) => {
                out.push_str(value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape(text: &str) -> String {
    crate::games::shared::markup::escape(text, "&#39;")
}

/// JSON that is safe inside a `<script>` element: no `<`, so no `</script>` can end it
/// early, whatever a team calls itself.
pub fn script_json(value: &Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// A stored game played again from its decision log, as each game shows it: its viewer
/// page, its text and JSON forms for `replay`, and the replayed scores to check against
/// the stored ones. Implemented by each game in its folder.
pub trait ReplayView: Send + Sync {
    /// The replayed score of every seat.
    fn scores(&self) -> Vec<i64>;

    /// Faults of one seat by kind name, where the replay tells them apart (empty when
    /// only their count is stored).
    fn faults_of(&self, _seat: usize) -> BTreeMap<&'static str, u32> {
        BTreeMap::new()
    }

    /// Turns played.
    fn turns(&self) -> usize;

    /// The viewer page.
    fn page(&self, info: &PageInfo) -> String;

    /// Whether the page shows its check of [`PageInfo::stored_scores`].
    fn checks_stored_scores(&self) -> bool {
        false
    }

    /// The game turn by turn as text (`replay --text`); `names` by seat.
    fn text(&self, names: &[String]) -> String;

    /// What `replay --json` prints: `about` and the game's documented trace.
    fn report_json(&self, about: &ReplayAbout) -> Value;

    /// The size of the game as full state per turn (its JSON trace), to compare with
    /// the stored decision log.
    fn full_state_bytes(&self) -> usize;
}

/// What `replay --json` says about a stored game besides its trace.
#[derive(Debug, Clone, Serialize)]
pub struct ReplayAbout {
    pub set: String,
    pub game: u32,
    /// The arena's stored name.
    pub arena: String,
    /// The team in each seat, in seat order.
    pub seats: Vec<SeatEntry>,
    /// Bytes stored for the game (its decision log).
    pub stored_bytes: usize,
}

/// A seat of a replayed game.
#[derive(Debug, Clone, Serialize)]
pub struct SeatEntry {
    pub seat: usize,
    pub team: String,
    pub score: i64,
}

/// A stored game of any kind played again from its decision log, ready for its viewer.
pub struct Replayed(Box<dyn ReplayView>);

impl Replayed {
    pub fn new(view: impl ReplayView + 'static) -> Replayed {
        Replayed(Box::new(view))
    }
}

impl std::ops::Deref for Replayed {
    type Target = dyn ReplayView;

    fn deref(&self) -> &(dyn ReplayView + 'static) {
        &*self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_value_that_looks_like_a_placeholder_is_not_filled_in() {
        let out = fill_template(
            "<h1>{{TITLE}}</h1>{{JS}}",
            &[("TITLE", "{{JS}}"), ("JS", "x")],
        );
        assert_eq!(out, "<h1>{{JS}}</h1>x");
    }

    #[test]
    fn script_json_cannot_close_the_script_element() {
        let v = json!({ "name": "</script><script>alert(1)</script>" });
        let out = script_json(&v);
        assert!(!out.contains("</"), "{out}");
        let back: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back, v);
    }
}
