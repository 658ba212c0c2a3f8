import PassWebService

/// The words one kind of Wallet item uses in Apple's device protocol: the same endpoints, registrations, tags and
/// credentials for passes and orders, named differently.
struct DeviceProtocolKind: Sendable {
    /// The path word of the fetch endpoint (`/v1/passes/...`, `/v1/orders/...`).
    let itemsPath: String
    /// The `Authorization` scheme devices send (`ApplePass`, `AppleOrder`).
    let authorizationScheme: String
    /// The list request's query parameter carrying the last tag seen.
    let updatedSinceQuery: String
    /// The list answer's key of identifiers.
    let listKey: String
    /// The list answer's key of the tag to send next time.
    let tagKey: String
    /// The device identifier's name, in errors.
    let deviceField: String
    /// The type identifier's name, in errors.
    let typeField: String
    /// The item identifier's name, in errors.
    let identifierField: String
    /// Whether a type identifier is well-formed for this kind (`pass.`, `order.` and reverse-DNS characters).
    let isValidTypeIdentifier: @Sendable (String) -> Bool

    /// Passes: `ApplePass`, `passesUpdatedSince`, `serialNumbers` + `lastUpdated`.
    static let passes = DeviceProtocolKind(
        itemsPath: "passes", authorizationScheme: "ApplePass", updatedSinceQuery: "passesUpdatedSince",
        listKey: "serialNumbers", tagKey: "lastUpdated", deviceField: "deviceLibraryIdentifier",
        typeField: "passTypeIdentifier", identifierField: "serialNumber",
        isValidTypeIdentifier: PathSegments.isValidPassTypeIdentifier)

    /// Orders: `AppleOrder`, `ordersModifiedSince`, `orderIdentifiers` + `lastModified`.
    static let orders = DeviceProtocolKind(
        itemsPath: "orders", authorizationScheme: "AppleOrder", updatedSinceQuery: "ordersModifiedSince",
        listKey: "orderIdentifiers", tagKey: "lastModified", deviceField: "deviceIdentifier",
        typeField: "orderTypeIdentifier", identifierField: "orderIdentifier",
        isValidTypeIdentifier: PathSegments.isValidOrderTypeIdentifier)
}
