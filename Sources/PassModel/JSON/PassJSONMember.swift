/// Something that visits each typed top-level member of a pass next to the template's value.
protocol PassMemberVisitor {
    /// A member other than a style key.
    mutating func visit<Value: Encodable & Equatable>(_ key: String, _ value: Value?, _ templateValue: Value?) throws
    /// One of the five style keys.
    mutating func visitStyle(_ style: PassStyle, _ fields: PassFields?) throws
}

extension Pass {
    /// Calls `visitor` for every typed member of `pass` with `template`'s value of the same member, in
    /// `JSONEncoder`'s sorted key order (`String` order).
    static func visitMembers(of pass: Pass, template: Pass, with visitor: inout some PassMemberVisitor) throws {
        try visitor.visit("accessibilityURL", pass.accessibilityURL, template.accessibilityURL)
        try visitor.visit("addOnURL", pass.addOnURL, template.addOnURL)
        try visitor.visit("appLaunchURL", pass.appLaunchURL, template.appLaunchURL)
        try visitor.visit("associatedStoreIdentifiers", pass.associatedStoreIdentifiers, template.associatedStoreIdentifiers)
        try visitor.visit("authenticationToken", pass.authenticationToken, template.authenticationToken)
        try visitor.visit("auxiliaryStoreIdentifiers", pass.auxiliaryStoreIdentifiers, template.auxiliaryStoreIdentifiers)
        try visitor.visit("backgroundColor", pass.backgroundColor, template.backgroundColor)
        try visitor.visit("bagPolicyURL", pass.bagPolicyURL, template.bagPolicyURL)
        try visitor.visit("barcode", pass.barcode, template.barcode)
        try visitor.visit("barcodes", pass.barcodes, template.barcodes)
        try visitor.visit("beacons", pass.beacons, template.beacons)
        try visitor.visitStyle(.boardingPass, pass.boardingPass)
        try visitor.visit("changeSeatURL", pass.changeSeatURL, template.changeSeatURL)
        try visitor.visit("contactVenueEmail", pass.contactVenueEmail, template.contactVenueEmail)
        try visitor.visit("contactVenuePhoneNumber", pass.contactVenuePhoneNumber, template.contactVenuePhoneNumber)
        try visitor.visit("contactVenueWebsite", pass.contactVenueWebsite, template.contactVenueWebsite)
        try visitor.visitStyle(.coupon, pass.coupon)
        try visitor.visit("description", pass.description, template.description)
        try visitor.visit("directionsInformationURL", pass.directionsInformationURL, template.directionsInformationURL)
        try visitor.visit("entertainmentURL", pass.entertainmentURL, template.entertainmentURL)
        try visitor.visit("eventLogoText", pass.eventLogoText, template.eventLogoText)
        try visitor.visitStyle(.eventTicket, pass.eventTicket)
        try visitor.visit("expirationDate", pass.expirationDate, template.expirationDate)
        try visitor.visit("featuredActions", pass.featuredActions, template.featuredActions)
        try visitor.visit("footerBackgroundColor", pass.footerBackgroundColor, template.footerBackgroundColor)
        try visitor.visit("foregroundColor", pass.foregroundColor, template.foregroundColor)
        try visitor.visit("formatVersion", pass.formatVersion, template.formatVersion)
        try visitor.visitStyle(.generic, pass.generic)
        try visitor.visit("groupingIdentifier", pass.groupingIdentifier, template.groupingIdentifier)
        try visitor.visit("labelColor", pass.labelColor, template.labelColor)
        try visitor.visit("locations", pass.locations, template.locations)
        try visitor.visit("logoSymbolName", pass.logoSymbolName, template.logoSymbolName)
        try visitor.visit("logoText", pass.logoText, template.logoText)
        try visitor.visit("managementURL", pass.managementURL, template.managementURL)
        try visitor.visit("maxDistance", pass.maxDistance, template.maxDistance)
        try visitor.visit("merchandiseURL", pass.merchandiseURL, template.merchandiseURL)
        try visitor.visit("nfc", pass.nfc, template.nfc)
        try visitor.visit("orderFoodURL", pass.orderFoodURL, template.orderFoodURL)
        try visitor.visit("organizationName", pass.organizationName, template.organizationName)
        try visitor.visit("parkingInformationURL", pass.parkingInformationURL, template.parkingInformationURL)
        try visitor.visit("passTypeIdentifier", pass.passTypeIdentifier, template.passTypeIdentifier)
        try visitor.visit("posterGeneric", pass.posterGeneric, template.posterGeneric)
        try visitor.visit("preferredStyleSchemes", pass.preferredStyleSchemes, template.preferredStyleSchemes)
        try visitor.visit("purchaseAdditionalBaggageURL", pass.purchaseAdditionalBaggageURL, template.purchaseAdditionalBaggageURL)
        try visitor.visit("purchaseLoungeAccessURL", pass.purchaseLoungeAccessURL, template.purchaseLoungeAccessURL)
        try visitor.visit("purchaseParkingURL", pass.purchaseParkingURL, template.purchaseParkingURL)
        try visitor.visit("purchaseWifiURL", pass.purchaseWifiURL, template.purchaseWifiURL)
        try visitor.visit("registerServiceAnimalURL", pass.registerServiceAnimalURL, template.registerServiceAnimalURL)
        try visitor.visit("relevantDate", pass.relevantDate, template.relevantDate)
        try visitor.visit("relevantDates", pass.relevantDates, template.relevantDates)
        try visitor.visit("reportLostBagURL", pass.reportLostBagURL, template.reportLostBagURL)
        try visitor.visit("requestWheelchairURL", pass.requestWheelchairURL, template.requestWheelchairURL)
        try visitor.visit("sellURL", pass.sellURL, template.sellURL)
        try visitor.visit(
            "semantics", pass.semantics.map(PassSemanticTags.withApplesSpelling),
            template.semantics.map(PassSemanticTags.withApplesSpelling))
        try visitor.visit("serialNumber", pass.serialNumber, template.serialNumber)
        try visitor.visit("sharingProhibited", pass.sharingProhibited, template.sharingProhibited)
        try visitor.visitStyle(.storeCard, pass.storeCard)
        try visitor.visit("stripColor", pass.stripColor, template.stripColor)
        try visitor.visit("suppressHeaderDarkening", pass.suppressHeaderDarkening, template.suppressHeaderDarkening)
        try visitor.visit("suppressStripShine", pass.suppressStripShine, template.suppressStripShine)
        try visitor.visit("teamIdentifier", pass.teamIdentifier, template.teamIdentifier)
        try visitor.visit("transferURL", pass.transferURL, template.transferURL)
        try visitor.visit("transitInformationURL", pass.transitInformationURL, template.transitInformationURL)
        try visitor.visit("transitProviderEmail", pass.transitProviderEmail, template.transitProviderEmail)
        try visitor.visit("transitProviderPhoneNumber", pass.transitProviderPhoneNumber, template.transitProviderPhoneNumber)
        try visitor.visit("transitProviderWebsiteURL", pass.transitProviderWebsiteURL, template.transitProviderWebsiteURL)
        try visitor.visit("upcomingPassInformation", pass.upcomingPassInformation, template.upcomingPassInformation)
        try visitor.visit("upgradeURL", pass.upgradeURL, template.upgradeURL)
        try visitor.visit("useAutomaticColors", pass.useAutomaticColors, template.useAutomaticColors)
        try visitor.visit("userInfo", pass.userInfo, template.userInfo)
        try visitor.visit("voided", pass.voided, template.voided)
        try visitor.visit("webServiceURL", pass.webServiceURL, template.webServiceURL)
    }
}

/// Records the key of every typed top-level member, in visiting order.
struct PassMemberKeyRecorder: PassMemberVisitor {
    var keys: [(key: String, encoded: [UInt8])] = []

    /// `"key":` for every typed top-level member, in visiting order.
    static let all: [(key: String, encoded: [UInt8])] = {
        var recorder = PassMemberKeyRecorder()
        try? Pass.visitMembers(of: Pass(), template: Pass(), with: &recorder)
        return recorder.keys
    }()

    mutating func visit<Value: Encodable & Equatable>(_ key: String, _ value: Value?, _ templateValue: Value?) {
        keys.append((key, PassJSONCache.encodedKey(key)))
    }

    mutating func visitStyle(_ style: PassStyle, _ fields: PassFields?) {
        keys.append((style.rawValue, PassJSONCache.encodedKey(style.rawValue)))
    }
}

/// One field group of ``PassFields`` for ``PassJSONCache``, in `JSONEncoder`'s sorted key order.
struct PassJSONGroup: Sendable {
    let key: String
    let encodedKey: [UInt8]
    let path: any KeyPath<PassFields, [PassField]?> & Sendable

    static let all: [PassJSONGroup] = zip(PassFields.groupNames, FieldIndex.groupPaths)
        .map { PassJSONGroup(key: $0, encodedKey: PassJSONCache.encodedKey($0), path: $1) }
        .sorted { $0.key < $1.key }

    static let transitTypeKey = PassJSONCache.encodedKey("transitType")
}

/// The members of a JSON object being written from encoded fragments.
struct PassJSONObjectWriter {
    private var members: [(key: String, encodedKey: [UInt8], value: [UInt8])] = []
    private var isSorted = true
    private var size = 2

    init(capacity: Int) {
        members.reserveCapacity(capacity)
    }

    /// Adds a member; `key` orders it among the others.
    mutating func add(_ key: String, _ encodedKey: [UInt8], _ value: [UInt8]) {
        if let last = members.last, !(last.key < key) { isSorted = false }
        members.append((key, encodedKey, value))
        size += encodedKey.count + value.count + 1
    }

    /// `{"key":value,...}` with the members in key order.
    mutating func bytes() -> [UInt8] {
        if !isSorted { members.sort { $0.key < $1.key } }
        var result: [UInt8] = []
        result.reserveCapacity(size)
        result.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            if index > 0 { result.append(UInt8(ascii: ",")) }
            result.append(contentsOf: member.encodedKey)
            result.append(contentsOf: member.value)
        }
        result.append(UInt8(ascii: "}"))
        return result
    }
}
