//! Baton's desktop app. `baton-app [FILE]` opens a topology given as the first argument.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    baton_app::run();
}
