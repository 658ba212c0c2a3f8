/// Apple's semantic tags (the `semantics` dictionary): each documented tag with the kind of value it holds,
/// and the other spellings some libraries write for a tag, which Tessera reads and writes in Apple's spelling.
public enum PassSemanticTags {
    /// The kind of value a semantic tag holds.
    public enum Kind: Sendable, Equatable {
        /// A string.
        case string
        /// A number.
        case number
        /// `true` or `false`.
        case boolean
        /// A W3C date string (`2026-05-07T19:30-05:00`).
        case date
        /// An IANA time zone name (`America/Chicago`).
        case timeZone
        /// An array of strings.
        case strings
        /// A string from a list of PassKit constants.
        case enumeration([String])
        /// An array of strings from a list of PassKit constants.
        case enumerations([String])
        /// A `SemanticTagType.Location`: `latitude` and `longitude`.
        case location
        /// A `SemanticTagType.PersonNameComponents`: `givenName`, `familyName`, ...
        case personName
        /// A `SemanticTagType.CurrencyAmount`: `amount` (a decimal string) and `currencyCode`.
        case currencyAmount
        /// A `SemanticTagType.EventDateInfo`: `date`, `timeZone`, `ignoreTimeComponents`, `unannounced`, `undetermined`.
        case eventDateInfo
        /// An array of `SemanticTagType.Seat`.
        case seats
        /// An array of `SemanticTagType.WifiNetwork`: `ssid` and `password`.
        case wifiNetworks
    }

    /// The documented `eventType` values.
    public static let eventTypes = [
        "PKEventTypeGeneric", "PKEventTypeLivePerformance", "PKEventTypeMovie", "PKEventTypeSports",
        "PKEventTypeConference", "PKEventTypeConvention", "PKEventTypeWorkshop", "PKEventTypeSocialGathering",
    ]

    /// The documented `passengerCapabilities` values.
    public static let passengerCapabilities = [
        "PKPassengerCapabilityPreBoarding", "PKPassengerCapabilityPriorityBoarding", "PKPassengerCapabilityCarryon",
        "PKPassengerCapabilityPersonalItem",
    ]

    /// The documented security programs (`passengerEligibleSecurityPrograms`, `…AirportSecurityPrograms`).
    public static let securityPrograms = [
        "PKTransitSecurityProgramTSAPreCheck", "PKTransitSecurityProgramTSAPreCheckTouchlessID",
        "PKTransitSecurityProgramOSS", "PKTransitSecurityProgramITI", "PKTransitSecurityProgramITD",
        "PKTransitSecurityProgramGlobalEntry", "PKTransitSecurityProgramCLEAR",
    ]

    /// Every documented tag and its kind.
    public static let kinds: [String: Kind] = {
        var kinds: [String: Kind] = [:]
        for tag in stringTags { kinds[tag] = .string }
        for tag in dateTags { kinds[tag] = .date }
        for tag in ["albumIDs", "artistIDs", "performerNames", "playlistIDs", "passengerAirlineSSRs",
            "passengerInformationSSRs", "passengerServiceSSRs"] { kinds[tag] = .strings }
        for tag in ["tailgatingAllowed", "internationalDocumentsAreVerified", "silenceRequested"] { kinds[tag] = .boolean }
        for tag in ["departureAirportTimeZone", "destinationAirportTimeZone"] { kinds[tag] = .timeZone }
        for tag in ["venueLocation", "departureLocation", "destinationLocation"] { kinds[tag] = .location }
        for tag in ["balance", "totalPrice"] { kinds[tag] = .currencyAmount }
        for tag in ["passengerEligibleSecurityPrograms", "departureAirportSecurityPrograms",
            "destinationAirportSecurityPrograms"] { kinds[tag] = .enumerations(securityPrograms) }
        kinds["duration"] = .number
        kinds["flightNumber"] = .number
        kinds["eventType"] = .enumeration(eventTypes)
        kinds["passengerCapabilities"] = .enumerations(passengerCapabilities)
        kinds["passengerName"] = .personName
        kinds["eventStartDateInfo"] = .eventDateInfo
        kinds["seats"] = .seats
        kinds["wifiAccess"] = .wifiNetworks
        return kinds
    }()

    private static let stringTags = [
        "admissionLevel", "admissionLevelAbbreviation", "additionalTicketAttributes", "attendeeName",
        "entranceDescription", "eventName", "eventLiveMessage", "venueEntrance", "venueEntranceDoor",
        "venueEntranceGate", "venueEntrancePortal", "venueName", "venuePhoneNumber", "venuePlaceID", "venueRegionName",
        "venueRoom",
        "awayTeamAbbreviation", "awayTeamLocation", "awayTeamName", "homeTeamAbbreviation", "homeTeamLocation",
        "homeTeamName", "leagueAbbreviation", "leagueName", "sportName", "genre", "airlineCode", "airlineLoungePlaceID",
        "boardingGroup", "boardingZone", "boardingSequenceNumber", "carNumber", "confirmationNumber",
        "departureAirportCode", "departureAirportName", "departureCityName", "departureGate",
        "departureLocationDescription", "departurePlatform", "departureStationName", "departureTerminal",
        "destinationAirportCode", "destinationAirportName", "destinationCityName", "destinationGate",
        "destinationLocationDescription", "destinationPlatform", "destinationStationName", "destinationTerminal",
        "flightCode", "internationalDocumentsVerifiedDeclarationName", "membershipProgramName",
        "membershipProgramNumber", "membershipProgramStatus", "priorityStatus", "securityScreening", "ticketFareClass", "transitProvider",
        "transitStatus", "transitStatusReason", "vehicleName", "vehicleNumber", "vehicleType",
    ]

    private static let dateTags = [
        "eventStartDate", "eventEndDate", "venueBoxOfficeOpenDate", "venueCloseDate", "venueDoorsOpenDate",
        "venueFanZoneOpenDate", "venueGatesOpenDate", "venueOpenDate", "venueParkingLotsOpenDate",
        "currentArrivalDate", "currentBoardingDate", "currentDepartureDate", "originalArrivalDate",
        "originalBoardingDate", "originalDepartureDate",
    ]

    /// Other libraries' spellings, by the spelling Apple documents and Pass Builder writes.
    public static let alternateSpellings: [String: String] = [
        "departureLocationTimeZone": "departureAirportTimeZone",
        "destinationLocationTimeZone": "destinationAirportTimeZone",
        "loungePlaceIDs": "airlineLoungePlaceID",
    ]

    /// The other spellings of a tag Apple spells `key`.
    static func aliases(of key: String) -> [String] {
        switch key {
        case "departureAirportTimeZone": return ["departureLocationTimeZone"]
        case "destinationAirportTimeZone": return ["destinationLocationTimeZone"]
        case "airlineLoungePlaceID": return ["loungePlaceIDs"]
        default: return []
        }
    }

    /// The value of an alternate spelling as Apple's tag holds it: `loungePlaceIDs` is a list, of which
    /// `airlineLoungePlaceID` takes the first identifier.
    static func applesValue(_ value: JSONValue, alias: String) -> JSONValue {
        if alias == "loungePlaceIDs", let first = value.arrayValue?.first { return first }
        return value
    }

    /// `semantics` with every alternate spelling written in Apple's (when Apple's spelling is not there too).
    /// - Parameter semantics: The `semantics` value as read.
    /// - Returns: The same value when it uses no alternate spelling, the value to write otherwise.
    public static func withApplesSpelling(_ semantics: JSONValue) -> JSONValue {
        guard case .object(var members) = semantics,
            alternateSpellings.keys.contains(where: { members[$0] != nil })
        else { return semantics }
        for (alias, apple) in alternateSpellings {
            guard let value = members.removeValue(forKey: alias) else { continue }
            if members[apple] == nil { members[apple] = applesValue(value, alias: alias) }
        }
        return .object(members)
    }
}
