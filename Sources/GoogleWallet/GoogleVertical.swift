/// The kinds of Google Wallet pass Tessera's templates map to, with their names in Google's API.
public enum GoogleVertical: String, Sendable, CaseIterable, Codable {
    case eventTicket, flight, transit, loyalty, offer, generic

    /// The class's schema, such as `EventTicketClass`.
    public var classSchema: String { schemaStem + "Class" }
    /// The object's schema, such as `EventTicketObject`.
    public var objectSchema: String { schemaStem + "Object" }
    /// The REST resource of classes, such as `eventTicketClass` (`walletobjects/v1/eventTicketClass`).
    public var classResource: String { rawValue + "Class" }
    /// The REST resource of objects, such as `eventTicketObject`.
    public var objectResource: String { rawValue + "Object" }
    /// The save JWT's payload member for classes, such as `eventTicketClasses`.
    public var classesMember: String { rawValue + "Classes" }
    /// The save JWT's payload member for objects, such as `eventTicketObjects`.
    public var objectsMember: String { rawValue + "Objects" }

    private var schemaStem: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}
