/// The version `tessera --version` prints. Raised with each release; the changes are in the project's history.
enum TesseraVersion {
    static let current = "0.6.0"
}
