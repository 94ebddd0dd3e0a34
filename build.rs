// The console in web/dist is embedded into the binary (src/app/web_assets.rs). Cargo does
// not notice new files there by itself, so a rebuilt console would be missed without
// this: a directory given here is scanned for changes as a whole.
fn main() {
    println!("cargo:rerun-if-changed=web/dist");
    println!("cargo:rerun-if-changed=migrations");
}
