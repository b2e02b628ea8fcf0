//! Baton's desktop app. `baton-app [FILE]` opens a topology given as the first argument.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    baton_app::run();
}
