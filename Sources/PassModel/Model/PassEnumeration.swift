/// A string-valued PassKit constant such as `PKBarcodeFormatQR`.
///
/// These types are open: decoding keeps any string, so a misspelt value survives decoding and the
/// validator can report it with its path ("unknown value X, expected one of ...").
public protocol PassEnumeration: RawRepresentable<String>, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The values Apple documents.
    static var knownValues: [Self] { get }
    /// Wraps a raw string, known or not.
    init(rawValue: String)
}

extension PassEnumeration {
    /// Whether the raw value is one Apple documents.
    public var isKnown: Bool { Self.knownValues.contains(self) }

    /// The raw value.
    public var description: String { rawValue }

    /// Decodes any string.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the raw string.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A barcode symbology (`format` of a barcode dictionary).
public struct PassBarcodeFormat: PassEnumeration {
    /// The PassKit constant.
    public var rawValue: String
    /// Wraps a raw value.
    /// - Parameter rawValue: The PassKit constant, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// QR code.
    public static let qr = Self(rawValue: "PKBarcodeFormatQR")
    /// PDF417.
    public static let pdf417 = Self(rawValue: "PKBarcodeFormatPDF417")
    /// Aztec.
    public static let aztec = Self(rawValue: "PKBarcodeFormatAztec")
    /// Code 128 (iOS 9 and later; not available on watchOS).
    public static let code128 = Self(rawValue: "PKBarcodeFormatCode128")
    /// The documented formats: the four every iOS version shows and the four iOS 27 added.
    public static let knownValues: [Self] = [.qr, .pdf417, .aztec, .code128, .code39, .codabar, .ean13, .i2of5]
}

/// The kind of transport on a boarding pass (`transitType`).
public struct PassTransitType: PassEnumeration {
    /// The PassKit constant.
    public var rawValue: String
    /// Wraps a raw value.
    /// - Parameter rawValue: The PassKit constant, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Air travel.
    public static let air = Self(rawValue: "PKTransitTypeAir")
    /// Boat travel.
    public static let boat = Self(rawValue: "PKTransitTypeBoat")
    /// Bus travel.
    public static let bus = Self(rawValue: "PKTransitTypeBus")
    /// Other transit.
    public static let generic = Self(rawValue: "PKTransitTypeGeneric")
    /// Train travel.
    public static let train = Self(rawValue: "PKTransitTypeTrain")
    /// The documented transit types.
    public static let knownValues: [Self] = [.air, .boat, .bus, .generic, .train]
}

/// How a field shows a date or time (`dateStyle`, `timeStyle`).
public struct PassDateStyle: PassEnumeration {
    /// The PassKit constant.
    public var rawValue: String
    /// Wraps a raw value.
    /// - Parameter rawValue: The PassKit constant, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Not shown.
    public static let none = Self(rawValue: "PKDateStyleNone")
    /// Short style, such as 11/23/37.
    public static let short = Self(rawValue: "PKDateStyleShort")
    /// Medium style, such as Nov 23, 1937.
    public static let medium = Self(rawValue: "PKDateStyleMedium")
    /// Long style, such as November 23, 1937.
    public static let long = Self(rawValue: "PKDateStyleLong")
    /// Full style, such as Tuesday, April 12, 1952 AD.
    public static let full = Self(rawValue: "PKDateStyleFull")
    /// The documented styles.
    public static let knownValues: [Self] = [.none, .short, .medium, .long, .full]
}

/// How a field shows a number (`numberStyle`).
public struct PassNumberStyle: PassEnumeration {
    /// The PassKit constant.
    public var rawValue: String
    /// Wraps a raw value.
    /// - Parameter rawValue: The PassKit constant, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Decimal.
    public static let decimal = Self(rawValue: "PKNumberStyleDecimal")
    /// Percent.
    public static let percent = Self(rawValue: "PKNumberStylePercent")
    /// Scientific notation.
    public static let scientific = Self(rawValue: "PKNumberStyleScientific")
    /// Spelled out in words.
    public static let spellOut = Self(rawValue: "PKNumberStyleSpellOut")
    /// The documented styles.
    public static let knownValues: [Self] = [.decimal, .percent, .scientific, .spellOut]
}

/// The alignment of a field's label and value (`textAlignment`).
public struct PassTextAlignment: PassEnumeration {
    /// The PassKit constant.
    public var rawValue: String
    /// Wraps a raw value.
    /// - Parameter rawValue: The PassKit constant, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Left aligned.
    public static let left = Self(rawValue: "PKTextAlignmentLeft")
    /// Centred.
    public static let center = Self(rawValue: "PKTextAlignmentCenter")
    /// Right aligned.
    public static let right = Self(rawValue: "PKTextAlignmentRight")
    /// Natural alignment for the script.
    public static let natural = Self(rawValue: "PKTextAlignmentNatural")
    /// The documented alignments.
    public static let knownValues: [Self] = [.left, .center, .right, .natural]
}

/// Data a back field's text is scanned for (`dataDetectorTypes`).
public struct PassDataDetectorType: PassEnumeration {
    /// The PassKit constant.
    public var rawValue: String
    /// Wraps a raw value.
    /// - Parameter rawValue: The PassKit constant, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Phone numbers.
    public static let phoneNumber = Self(rawValue: "PKDataDetectorTypePhoneNumber")
    /// URLs.
    public static let link = Self(rawValue: "PKDataDetectorTypeLink")
    /// Postal addresses.
    public static let address = Self(rawValue: "PKDataDetectorTypeAddress")
    /// Calendar events.
    public static let calendarEvent = Self(rawValue: "PKDataDetectorTypeCalendarEvent")
    /// The documented detector types.
    public static let knownValues: [Self] = [.phoneNumber, .link, .address, .calendarEvent]
}
