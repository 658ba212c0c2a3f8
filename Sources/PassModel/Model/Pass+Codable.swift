public import Foundation

extension Pass {
    /// The top-level keys modelled as typed properties.
    static let typedKeys: Set<String> = [
        "description", "formatVersion", "organizationName", "passTypeIdentifier", "serialNumber", "teamIdentifier",
        "appLaunchURL", "associatedStoreIdentifiers", "userInfo", "expirationDate", "voided", "beacons",
        "locations", "maxDistance", "relevantDate", "relevantDates", "boardingPass", "coupon",
        "eventTicket", "generic", "storeCard", "barcode", "barcodes", "backgroundColor",
        "foregroundColor", "labelColor", "stripColor", "groupingIdentifier", "logoText", "suppressStripShine",
        "sharingProhibited", "nfc", "webServiceURL", "authenticationToken", "semantics", "preferredStyleSchemes",
        "eventLogoText", "footerBackgroundColor", "useAutomaticColors", "suppressHeaderDarkening", "auxiliaryStoreIdentifiers", "bagPolicyURL",
        "orderFoodURL", "parkingInformationURL", "directionsInformationURL", "purchaseParkingURL", "merchandiseURL", "transitInformationURL",
        "accessibilityURL", "addOnURL", "contactVenueEmail", "contactVenuePhoneNumber", "contactVenueWebsite", "transferURL",
        "sellURL", "changeSeatURL", "entertainmentURL", "purchaseAdditionalBaggageURL", "purchaseLoungeAccessURL", "purchaseWifiURL", "upgradeURL", "managementURL", "registerServiceAnimalURL", "reportLostBagURL", "requestWheelchairURL", "transitProviderEmail", "transitProviderPhoneNumber", "transitProviderWebsiteURL", "posterGeneric", "featuredActions", "logoSymbolName",
        "upcomingPassInformation",
    ]

    /// Top-level keys Apple documents that this model keeps in ``unknownKeys`` without typing them; the
    /// validator does not warn about them. Every documented key is typed now, so the set is empty.
    public static let documentedUntypedKeys: Set<String> = []

    /// Decodes `pass.json` with Foundation's `JSONDecoder`.
    ///
    /// Keys this model does not type are kept in ``unknownKeys``; field, barcode, beacon, location,
    /// relevant-date and NFC dictionaries keep theirs too.
    /// - Parameter jsonData: The `pass.json` bytes.
    /// - Throws: ``PassModelError`` `invalidJSON` for malformed JSON, `invalidPass` naming the key path
    ///   of a value of the wrong type.
    public init(jsonData: Data) throws {
        do {
            self = try JSONCoding.decoder.decode(Pass.self, from: jsonData)
        } catch let error as DecodingError {
            // Only failures pay for the tree: it tells malformed JSON apart and names the kind found.
            let tree = try JSONValue(jsonData: jsonData)
            throw Self.invalidPass(error, in: tree)
        }
    }

    /// Decodes a pass from a parsed JSON tree (encoding it to bytes for `JSONDecoder`).
    /// - Parameter json: The `pass.json` object.
    /// - Throws: ``PassModelError`` `invalidPass` naming the key path of a value of the wrong type.
    public init(json: JSONValue) throws {
        let bytes = try json.jsonData(sortedKeys: false, prettyPrinted: false)
        do {
            self = try JSONCoding.decoder.decode(Pass.self, from: bytes)
        } catch let error as DecodingError {
            throw Self.invalidPass(error, in: json)
        }
    }

    private static func invalidPass(_ error: DecodingError, in tree: JSONValue) -> PassModelError {
        let (path, message) = CodingPath.reason(error, in: tree)
        let location = path.isEmpty ? "pass.json" : CodingPath.string(path)
        return PassModelError(.invalidPass, "\(location): \(message)")
    }

    /// Encodes `pass.json`: pretty-printed, keys sorted, slashes unescaped, unknown keys written back,
    /// dates as read.
    /// - Returns: UTF-8 JSON text.
    /// - Throws: ``PassModelError`` `invalidJSON` when a number cannot be written (infinite or NaN).
    public func jsonData() throws -> Data {
        try JSONCoding.encode(self, sortedKeys: true, prettyPrinted: true)
    }

    /// The pass as a JSON tree.
    /// - Returns: The `pass.json` object.
    /// - Throws: ``PassModelError`` `invalidJSON` when a number cannot be represented (infinite or NaN).
    public func json() throws -> JSONValue {
        try JSONValue(jsonData: JSONCoding.encode(self, sortedKeys: false, prettyPrinted: false))
    }

    /// Decodes every documented key, keeping the rest in ``unknownKeys``.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        description = try c.decode("description")
        formatVersion = try c.decode("formatVersion")
        organizationName = try c.decode("organizationName")
        passTypeIdentifier = try c.decode("passTypeIdentifier")
        serialNumber = try c.decode("serialNumber")
        teamIdentifier = try c.decode("teamIdentifier")
        appLaunchURL = try c.decode("appLaunchURL")
        associatedStoreIdentifiers = try c.decode("associatedStoreIdentifiers")
        userInfo = try c.decode("userInfo")
        expirationDate = try c.decode("expirationDate")
        voided = try c.decode("voided")
        beacons = try c.decode("beacons")
        locations = try c.decode("locations")
        maxDistance = try c.decode("maxDistance")
        relevantDate = try c.decode("relevantDate")
        relevantDates = try c.decode("relevantDates")
        boardingPass = try c.decode("boardingPass")
        coupon = try c.decode("coupon")
        eventTicket = try c.decode("eventTicket")
        generic = try c.decode("generic")
        storeCard = try c.decode("storeCard")
        barcode = try c.decode("barcode")
        barcodes = try c.decode("barcodes")
        backgroundColor = try c.decode("backgroundColor")
        foregroundColor = try c.decode("foregroundColor")
        labelColor = try c.decode("labelColor")
        stripColor = try c.decode("stripColor")
        groupingIdentifier = try c.decode("groupingIdentifier")
        logoText = try c.decode("logoText")
        suppressStripShine = try c.decode("suppressStripShine")
        sharingProhibited = try c.decode("sharingProhibited")
        nfc = try c.decode("nfc")
        webServiceURL = try c.decode("webServiceURL")
        authenticationToken = try c.decode("authenticationToken")
        semantics = try c.decode("semantics")
        preferredStyleSchemes = try c.decode("preferredStyleSchemes")
        eventLogoText = try c.decode("eventLogoText")
        footerBackgroundColor = try c.decode("footerBackgroundColor")
        useAutomaticColors = try c.decode("useAutomaticColors")
        suppressHeaderDarkening = try c.decode("suppressHeaderDarkening")
        auxiliaryStoreIdentifiers = try c.decode("auxiliaryStoreIdentifiers")
        bagPolicyURL = try c.decode("bagPolicyURL")
        orderFoodURL = try c.decode("orderFoodURL")
        parkingInformationURL = try c.decode("parkingInformationURL")
        directionsInformationURL = try c.decode("directionsInformationURL")
        purchaseParkingURL = try c.decode("purchaseParkingURL")
        merchandiseURL = try c.decode("merchandiseURL")
        transitInformationURL = try c.decode("transitInformationURL")
        accessibilityURL = try c.decode("accessibilityURL")
        addOnURL = try c.decode("addOnURL")
        contactVenueEmail = try c.decode("contactVenueEmail")
        contactVenuePhoneNumber = try c.decode("contactVenuePhoneNumber")
        contactVenueWebsite = try c.decode("contactVenueWebsite")
        transferURL = try c.decode("transferURL")
        sellURL = try c.decode("sellURL")
        changeSeatURL = try c.decode("changeSeatURL")
        entertainmentURL = try c.decode("entertainmentURL")
        purchaseAdditionalBaggageURL = try c.decode("purchaseAdditionalBaggageURL")
        purchaseLoungeAccessURL = try c.decode("purchaseLoungeAccessURL")
        purchaseWifiURL = try c.decode("purchaseWifiURL")
        upgradeURL = try c.decode("upgradeURL")
        managementURL = try c.decode("managementURL")
        registerServiceAnimalURL = try c.decode("registerServiceAnimalURL")
        reportLostBagURL = try c.decode("reportLostBagURL")
        requestWheelchairURL = try c.decode("requestWheelchairURL")
        transitProviderEmail = try c.decode("transitProviderEmail")
        transitProviderPhoneNumber = try c.decode("transitProviderPhoneNumber")
        transitProviderWebsiteURL = try c.decode("transitProviderWebsiteURL")
        posterGeneric = try c.decode("posterGeneric")
        featuredActions = try c.decode("featuredActions")
        logoSymbolName = try c.decode("logoSymbolName")
        upcomingPassInformation = try c.decode("upcomingPassInformation")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then ``unknownKeys``.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(description, "description")
        try c.encode(formatVersion, "formatVersion")
        try c.encode(organizationName, "organizationName")
        try c.encode(passTypeIdentifier, "passTypeIdentifier")
        try c.encode(serialNumber, "serialNumber")
        try c.encode(teamIdentifier, "teamIdentifier")
        try c.encode(appLaunchURL, "appLaunchURL")
        try c.encode(associatedStoreIdentifiers, "associatedStoreIdentifiers")
        try c.encode(userInfo, "userInfo")
        try c.encode(expirationDate, "expirationDate")
        try c.encode(voided, "voided")
        try c.encode(beacons, "beacons")
        try c.encode(locations, "locations")
        try c.encode(maxDistance, "maxDistance")
        try c.encode(relevantDate, "relevantDate")
        try c.encode(relevantDates, "relevantDates")
        try c.encode(boardingPass, "boardingPass")
        try c.encode(coupon, "coupon")
        try c.encode(eventTicket, "eventTicket")
        try c.encode(generic, "generic")
        try c.encode(storeCard, "storeCard")
        try c.encode(barcode, "barcode")
        try c.encode(barcodes, "barcodes")
        try c.encode(backgroundColor, "backgroundColor")
        try c.encode(foregroundColor, "foregroundColor")
        try c.encode(labelColor, "labelColor")
        try c.encode(stripColor, "stripColor")
        try c.encode(groupingIdentifier, "groupingIdentifier")
        try c.encode(logoText, "logoText")
        try c.encode(suppressStripShine, "suppressStripShine")
        try c.encode(sharingProhibited, "sharingProhibited")
        try c.encode(nfc, "nfc")
        try c.encode(webServiceURL, "webServiceURL")
        try c.encode(authenticationToken, "authenticationToken")
        try c.encode(semantics.map(PassSemanticTags.withApplesSpelling), "semantics")
        try c.encode(preferredStyleSchemes, "preferredStyleSchemes")
        try c.encode(eventLogoText, "eventLogoText")
        try c.encode(footerBackgroundColor, "footerBackgroundColor")
        try c.encode(useAutomaticColors, "useAutomaticColors")
        try c.encode(suppressHeaderDarkening, "suppressHeaderDarkening")
        try c.encode(auxiliaryStoreIdentifiers, "auxiliaryStoreIdentifiers")
        try c.encode(bagPolicyURL, "bagPolicyURL")
        try c.encode(orderFoodURL, "orderFoodURL")
        try c.encode(parkingInformationURL, "parkingInformationURL")
        try c.encode(directionsInformationURL, "directionsInformationURL")
        try c.encode(purchaseParkingURL, "purchaseParkingURL")
        try c.encode(merchandiseURL, "merchandiseURL")
        try c.encode(transitInformationURL, "transitInformationURL")
        try c.encode(accessibilityURL, "accessibilityURL")
        try c.encode(addOnURL, "addOnURL")
        try c.encode(contactVenueEmail, "contactVenueEmail")
        try c.encode(contactVenuePhoneNumber, "contactVenuePhoneNumber")
        try c.encode(contactVenueWebsite, "contactVenueWebsite")
        try c.encode(transferURL, "transferURL")
        try c.encode(sellURL, "sellURL")
        try c.encode(changeSeatURL, "changeSeatURL")
        try c.encode(entertainmentURL, "entertainmentURL")
        try c.encode(purchaseAdditionalBaggageURL, "purchaseAdditionalBaggageURL")
        try c.encode(purchaseLoungeAccessURL, "purchaseLoungeAccessURL")
        try c.encode(purchaseWifiURL, "purchaseWifiURL")
        try c.encode(upgradeURL, "upgradeURL")
        try c.encode(managementURL, "managementURL")
        try c.encode(registerServiceAnimalURL, "registerServiceAnimalURL")
        try c.encode(reportLostBagURL, "reportLostBagURL")
        try c.encode(requestWheelchairURL, "requestWheelchairURL")
        try c.encode(transitProviderEmail, "transitProviderEmail")
        try c.encode(transitProviderPhoneNumber, "transitProviderPhoneNumber")
        try c.encode(transitProviderWebsiteURL, "transitProviderWebsiteURL")
        try c.encode(posterGeneric, "posterGeneric")
        try c.encode(featuredActions, "featuredActions")
        try c.encode(logoSymbolName, "logoSymbolName")
        try c.encode(upcomingPassInformation, "upcomingPassInformation")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}
