// The migrations are embedded by `sqlx::migrate!`: build again when one is added.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
