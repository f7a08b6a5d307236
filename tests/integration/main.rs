//! One integration-test binary (as ripgrep has): each module drives the real `judge` binary.

mod util;

mod build_box;
mod cli_basics;
mod corpus_through_binary;
mod default_testsets;
mod differential;
mod generation;
mod hostile_inputs;
mod layering;
mod package;
mod python_ports;
mod reports;
mod sandbox;
mod strength;
mod stress;
