//! What the games share: code that more than one game's folder would otherwise write again.
//!
//! Nothing here knows a game's rules; each game keeps its own vocabulary and plugs it in
//! (its problems into [`scenario`]'s readers, its `Player` trait onto [`ai::RandomAi`], its
//! trace into [`trace_view::TraceView`]). The orchestrator does not use this module: it
//! reaches games through their seam only.

pub mod ai;
pub mod answer;
pub mod grid;
pub mod markup;
pub mod robo;
pub mod scenario;
pub mod seats;
pub mod series;
pub mod silence;
pub mod trace_view;
