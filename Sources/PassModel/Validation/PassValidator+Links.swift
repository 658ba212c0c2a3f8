import Foundation

extension PassValidator {
    /// URLs that are not URLs and email addresses that are not addresses are errors; more than two
    /// featured actions, or an action without what its type needs, are reported too.
    func checkLinks(_ pass: Pass, context: inout ValidationContext) {
        // Each key read directly: most passes have none of them, and reading through key paths cost more.
        func link(_ key: @autoclosure () -> String, _ value: String?) {
            if let value { Self.checkLink(value, path: key(), context: &context) }
        }
        link("accessibilityURL", pass.accessibilityURL)
        link("addOnURL", pass.addOnURL)
        link("bagPolicyURL", pass.bagPolicyURL)
        link("changeSeatURL", pass.changeSeatURL)
        link("contactVenueWebsite", pass.contactVenueWebsite)
        link("directionsInformationURL", pass.directionsInformationURL)
        link("entertainmentURL", pass.entertainmentURL)
        link("managementURL", pass.managementURL)
        link("merchandiseURL", pass.merchandiseURL)
        link("orderFoodURL", pass.orderFoodURL)
        link("parkingInformationURL", pass.parkingInformationURL)
        link("purchaseAdditionalBaggageURL", pass.purchaseAdditionalBaggageURL)
        link("purchaseLoungeAccessURL", pass.purchaseLoungeAccessURL)
        link("purchaseParkingURL", pass.purchaseParkingURL)
        link("purchaseWifiURL", pass.purchaseWifiURL)
        link("registerServiceAnimalURL", pass.registerServiceAnimalURL)
        link("reportLostBagURL", pass.reportLostBagURL)
        link("requestWheelchairURL", pass.requestWheelchairURL)
        link("sellURL", pass.sellURL)
        link("transferURL", pass.transferURL)
        link("transitInformationURL", pass.transitInformationURL)
        link("transitProviderWebsiteURL", pass.transitProviderWebsiteURL)
        link("upgradeURL", pass.upgradeURL)
        if let value = pass.contactVenueEmail, !Self.isEmailAddress(value) {
            context.error("contactVenueEmail", "must be an email address such as tickets@example.com, found \"\(value)\"")
        }
        if let value = pass.transitProviderEmail, !Self.isEmailAddress(value) {
            context.error("transitProviderEmail", "must be an email address such as tickets@example.com, found \"\(value)\"")
        }
        if let symbol = pass.logoSymbolName, symbol.trimmingWhitespace().isEmpty {
            context.error("logoSymbolName", "must not be empty")
        }
        if let actions = pass.featuredActions { checkFeaturedActions(actions, context: &context) }
    }

    /// An absolute `https` or `http` URL with a host.
    static func checkLink(_ value: String, path: @autoclosure () -> String, context: inout ValidationContext) {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            scheme == "https" || scheme == "http"
        else {
            context.error(path(), "must be a URL such as https://example.com/page, found \"\(value)\"")
            return
        }
    }

    /// `local@domain.tld` with no spaces: what Wallet can hand to Mail.
    static func isEmailAddress(_ value: String) -> Bool {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !value.contains(where: \.isWhitespace) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }

    private func checkFeaturedActions(_ actions: [PassFeaturedAction], context: inout ValidationContext) {
        if actions.count > 2 {
            context.warning(
                "featuredActions", "Wallet shows at most 2 featured actions; found \(actions.count), Wallet ignores the rest")
        }
        var seen: [String: Int] = [:]
        for (index, action) in actions.enumerated() {
            let path = "featuredActions[\(index)]"
            if let identifier = action.identifier, !identifier.isEmpty {
                if let first = seen[identifier] {
                    context.error("\(path).identifier", "duplicate identifier \"\(identifier)\", also used at featuredActions[\(first)]")
                } else {
                    seen[identifier] = index
                }
            } else {
                context.error("\(path).identifier", "required key is missing")
            }
            checkFeaturedActionTarget(action, path: path, context: &context)
            Self.warnUnknownKeys(action.unknownKeys, at: path, context: &context)
        }
    }

    /// The type decides what the action acts on: `place` a Maps `placeIdentifier`, every other type a `url`.
    private func checkFeaturedActionTarget(_ action: PassFeaturedAction, path: String, context: inout ValidationContext) {
        guard let type = action.type, !type.isEmpty else {
            context.error("\(path).type", "required key is missing")
            if let url = action.url { Self.checkLink(url, path: "\(path).url", context: &context) }
            return
        }
        if type == PassFeaturedAction.placeType {
            if let place = action.placeIdentifier {
                if place.trimmingWhitespace().isEmpty { context.error("\(path).placeIdentifier", "must not be empty") }
            } else {
                context.error("\(path).placeIdentifier", "required for a place action (the Maps place it shows)")
            }
            if action.url != nil {
                context.warning("\(path).url", "a place action shows placeIdentifier in Maps; Wallet ignores url")
            }
            return
        }
        if !PassFeaturedAction.knownTypes.contains(type) {
            context.warning(
                "\(path).type",
                "unknown action type \"\(type)\", expected one of \(PassFeaturedAction.knownTypes.joined(separator: ", ")); "
                    + "Wallet does not show it")
            if action.url == nil, action.placeIdentifier == nil {
                context.error(path, "needs the value its type acts on: url or placeIdentifier")
            }
            if let url = action.url { Self.checkLink(url, path: "\(path).url", context: &context) }
            return
        }
        if let url = action.url {
            if type == PassFeaturedAction.callType, url.lowercased().hasPrefix("tel:") {
                if !Self.isTelephoneURL(url) {
                    context.error("\(path).url", "must be a tel: URL with a phone number such as tel:+15550100, found \"\(url)\"")
                }
            } else {
                Self.checkLink(url, path: "\(path).url", context: &context)
            }
        } else {
            context.error("\(path).url", "required for a \(type) action (the page it opens)")
        }
        if action.placeIdentifier != nil {
            context.warning("\(path).placeIdentifier", "only place actions use placeIdentifier; Wallet ignores it")
        }
    }

    /// `tel:` followed by a phone number: digits with optional `+`, spaces, dashes, dots and brackets.
    static func isTelephoneURL(_ value: String) -> Bool {
        let number = value.dropFirst(4)
        return number.contains(where: \.isNumber)
            && number.allSatisfy { $0.isASCII && ($0.isNumber || "+-. ()".contains($0)) }
    }
}
