//! `judge`: a command-line assistant for tournament judges of Phantom Magic
//! Vision, PSO2 TCG, Shadowverse Evolve and Dimension Zero.
//!
//! See ARCHITECTURE.md for the map of modules.

pub mod bundle;
pub mod cli;
pub mod diff;
pub mod engine;
pub mod error;
pub mod games;
pub mod lookup;
pub mod output;
pub mod rulebook;
pub mod scenario;
pub mod search;
pub mod site;
pub mod text;
