/// Apple's `pass.json`: every documented key as a typed optional property, plus the keys this
/// model does not know in ``unknownKeys``.
///
/// Required keys are optional here so that an incomplete pass still decodes and ``PassValidator``
/// can report every problem with its path. Dates are W3C strings kept exactly as written; use
/// ``W3CDate`` to read them.
public struct Pass: Codable, Sendable, Equatable {
    // MARK: Standard keys

    /// A short description for accessibility; required, localisable.
    public var description: String?
    /// The file format version; required, must be 1.
    public var formatVersion: Int?
    /// The name of the organisation that signed the pass; required, localisable.
    public var organizationName: String?
    /// The pass type identifier (`pass.com.example...`) matching the signing certificate; required.
    public var passTypeIdentifier: String?
    /// A number unique among passes of this type; required.
    public var serialNumber: String?
    /// The 10-character Apple team identifier of the signing certificate; required.
    public var teamIdentifier: String?

    // MARK: Associated app keys

    /// A URL passed to the associated app when Wallet launches it; needs `associatedStoreIdentifiers`.
    public var appLaunchURL: String?
    /// App Store identifiers of apps associated with the pass.
    public var associatedStoreIdentifiers: [Int]?
    /// Custom JSON for the companion app; not shown to the user.
    public var userInfo: JSONValue?

    // MARK: Expiration keys

    /// When the pass expires (W3C date).
    public var expirationDate: String?
    /// Whether the pass is void, such as a redeemed coupon.
    public var voided: Bool?

    // MARK: Relevance keys

    /// Beacons near which the pass is relevant (at most 10).
    public var beacons: [PassBeacon]?
    /// Places near which the pass is relevant (at most 10).
    public var locations: [PassLocation]?
    /// The maximum distance in metres from a location at which the pass is relevant.
    public var maxDistance: Double?
    /// When the pass becomes relevant (W3C date); superseded by `relevantDates` in iOS 18.
    public var relevantDate: String?
    /// Dates or intervals when the pass is relevant (iOS 18 and later).
    public var relevantDates: [PassRelevantDate]?

    // MARK: Styles

    /// Fields of a boarding pass.
    public var boardingPass: PassFields?
    /// Fields of a coupon.
    public var coupon: PassFields?
    /// Fields of an event ticket.
    public var eventTicket: PassFields?
    /// Fields of a generic pass.
    public var generic: PassFields?
    /// Fields of a store card.
    public var storeCard: PassFields?

    // MARK: Visual appearance keys

    /// The barcode for iOS 8 and earlier; deprecated in favour of `barcodes`.
    public var barcode: PassBarcode?
    /// Barcodes; Wallet shows the first one the device supports.
    public var barcodes: [PassBarcode]?
    /// Background colour, `rgb(r, g, b)`.
    public var backgroundColor: String?
    /// Colour of field values, `rgb(r, g, b)`.
    public var foregroundColor: String?
    /// Colour of field labels, `rgb(r, g, b)`.
    public var labelColor: String?
    /// Colour of primary field values drawn over a strip image (undocumented), `rgb(r, g, b)`.
    public var stripColor: String?
    /// Groups event tickets and boarding passes with the same pass type into one stack.
    public var groupingIdentifier: String?
    /// Text shown next to the logo; localisable.
    public var logoText: String?
    /// Turns off the shine effect on the strip image.
    public var suppressStripShine: Bool?
    /// Hides the Share button (iOS 16 and later).
    public var sharingProhibited: Bool?

    // MARK: NFC, web service and semantics

    /// NFC payload; needs an NFC-entitled certificate.
    public var nfc: PassNFC?
    /// The HTTPS base URL of the pass web service (Wallet appends `/v1/...`).
    public var webServiceURL: String?
    /// The token the device sends to the web service; at least 16 characters.
    public var authenticationToken: String?
    /// Machine-readable metadata (Apple's SemanticTags), kept as JSON.
    public var semantics: JSONValue?

    // MARK: Poster event tickets (iOS 18 and later)

    /// Style schemes to use when the device supports them, such as `["posterEventTicket", "eventTicket"]`.
    public var preferredStyleSchemes: [String]?
    /// Text shown next to the logo on poster event tickets (iOS 18.1).
    public var eventLogoText: String?
    /// Colour of the footer of poster event tickets, `rgb(r, g, b)`.
    public var footerBackgroundColor: String?
    /// Lets Wallet derive foreground and label colours from the artwork.
    public var useAutomaticColors: Bool?
    /// Turns off the darkening gradient behind the header.
    public var suppressHeaderDarkening: Bool?
    /// App Store identifiers of apps suggested in the event guide.
    public var auxiliaryStoreIdentifiers: [Int]?
    /// Event guide: the venue's bag policy.
    public var bagPolicyURL: String?
    /// Event guide: ordering food at the venue.
    public var orderFoodURL: String?
    /// Event guide: parking information.
    public var parkingInformationURL: String?
    /// Event guide: directions to the venue.
    public var directionsInformationURL: String?
    /// Event guide: buying parking.
    public var purchaseParkingURL: String?
    /// Event guide: buying merchandise.
    public var merchandiseURL: String?
    /// Event guide: public transport to the venue.
    public var transitInformationURL: String?
    /// Event guide: venue accessibility.
    public var accessibilityURL: String?
    /// Event guide: add-ons and upgrades.
    public var addOnURL: String?
    /// Event guide: the venue's email address.
    public var contactVenueEmail: String?
    /// Event guide: the venue's phone number.
    public var contactVenuePhoneNumber: String?
    /// Event guide: the venue's website.
    public var contactVenueWebsite: String?
    /// Pass menu: transferring the ticket.
    public var transferURL: String?
    /// Pass menu: selling the ticket.
    public var sellURL: String?

    // MARK: Semantic boarding passes (iOS 26 and later)

    /// Boarding pass menu: changing the seat (iOS 26).
    public var changeSeatURL: String?
    /// Boarding pass menu: in-flight entertainment (iOS 26).
    public var entertainmentURL: String?
    /// Boarding pass menu: buying more baggage allowance (iOS 26).
    public var purchaseAdditionalBaggageURL: String?
    /// Boarding pass menu: buying lounge access (iOS 26).
    public var purchaseLoungeAccessURL: String?
    /// Boarding pass menu: buying in-flight Wi-Fi (iOS 26).
    public var purchaseWifiURL: String?
    /// Boarding pass menu: upgrading the seat or class (iOS 26).
    public var upgradeURL: String?
    /// Boarding pass menu: managing the booking (iOS 26).
    public var managementURL: String?
    /// Boarding pass menu: registering a service animal (iOS 26).
    public var registerServiceAnimalURL: String?
    /// Boarding pass menu: reporting a lost bag (iOS 26).
    public var reportLostBagURL: String?
    /// Boarding pass menu: requesting wheelchair assistance (iOS 26).
    public var requestWheelchairURL: String?
    /// Boarding pass: the carrier's email address (iOS 26).
    public var transitProviderEmail: String?
    /// Boarding pass: the carrier's phone number (iOS 26).
    public var transitProviderPhoneNumber: String?
    /// Boarding pass: the carrier's website (iOS 26).
    public var transitProviderWebsiteURL: String?

    // MARK: Upcoming events (iOS 26 and later)

    /// The events a multi-event ticket admits to, in the order Wallet lists them (iOS 26).
    public var upcomingPassInformation: [UpcomingPassInformationEntry]?

    // MARK: iOS 27

    /// Fields of a poster generic pass (iOS 27 and later). A pass may carry `generic` beside it, which
    /// earlier iOS versions show instead.
    public var posterGeneric: PassFields?
    /// Actions Wallet draws below the pass (iOS 27 and later; at most 2).
    public var featuredActions: [PassFeaturedAction]?
    /// An SF Symbol name Wallet draws as the logo.
    public var logoSymbolName: String?

    /// Top-level keys this model does not type, written back exactly as they were read.
    public var unknownKeys: [String: JSONValue] = [:]

    /// Creates a pass with the required keys (`formatVersion` 1) and no style yet.
    /// - Parameters:
    ///   - description: Accessibility description.
    ///   - organizationName: The issuing organisation.
    ///   - passTypeIdentifier: The pass type identifier.
    ///   - serialNumber: The serial number.
    ///   - teamIdentifier: The team identifier.
    public init(
        description: String? = nil,
        organizationName: String? = nil,
        passTypeIdentifier: String? = nil,
        serialNumber: String? = nil,
        teamIdentifier: String? = nil
    ) {
        self.description = description
        formatVersion = 1
        self.organizationName = organizationName
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.teamIdentifier = teamIdentifier
    }
}

extension Pass {
    /// The style keys that are present, in ``PassStyle`` order.
    public var styles: [PassStyle] {
        PassStyle.allCases.filter { self[style: $0] != nil }
    }

    /// The single style present; `nil` if there is none or several.
    public var style: PassStyle? {
        let present = styles
        return present.count == 1 ? present[0] : nil
    }

    /// The field groups of ``style``; `nil` if there is no single style.
    public var fieldsOfStyle: PassFields? {
        style.flatMap { self[style: $0] }
    }

    /// The field groups stored under a style key.
    public subscript(style style: PassStyle) -> PassFields? {
        get {
            switch style {
            case .boardingPass: return boardingPass
            case .coupon: return coupon
            case .eventTicket: return eventTicket
            case .generic: return generic
            case .storeCard: return storeCard
            }
        }
        set {
            switch style {
            case .boardingPass: boardingPass = newValue
            case .coupon: coupon = newValue
            case .eventTicket: eventTicket = newValue
            case .generic: generic = newValue
            case .storeCard: storeCard = newValue
            }
        }
    }
}
