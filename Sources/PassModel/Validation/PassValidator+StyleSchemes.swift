extension PassValidator {
    /// What a poster event ticket or semantic boarding pass needs, checked only when the pass asks for one.
    ///
    /// Apple's own validator makes each missing requirement an error; so does this one. When a pass asks
    /// for a scheme it does not qualify for, one more warning on `preferredStyleSchemes` says which classic
    /// layout Wallet shows instead and why.
    func checkStyleSchemes(_ pass: Pass, files: PreparedFiles, context: inout ValidationContext) {
        guard let schemes = pass.preferredStyleSchemes else { return }
        let style = pass.style
        var requested: PassStyleScheme?
        var misplaced: [PassStyleScheme] = []
        for (index, raw) in schemes.enumerated() {
            let scheme = PassStyleScheme(rawValue: raw)
            guard let schemeStyle = scheme.style else {
                context.warning("preferredStyleSchemes[\(index)]", Self.unknownValue(scheme) + "; Wallet ignores it")
                continue
            }
            guard let style else { continue }
            if schemeStyle != style {
                context.warning(
                    "preferredStyleSchemes[\(index)]",
                    "\(raw) is a scheme for \(schemeStyle.rawValue) passes, but this pass's style is \(style.rawValue); "
                        + "Wallet ignores it"
                )
                if scheme.isEnhanced { misplaced.append(scheme) }
            } else if scheme.isEnhanced, requested == nil {
                requested = scheme
            }
        }
        guard let style else { return }
        guard let requested else {
            if let first = misplaced.first {
                context.warning(
                    "preferredStyleSchemes",
                    "this pass will show the classic \(style.rawValue) layout because \(first.rawValue) is only for "
                        + "\(first.style!.rawValue) passes"
                )
            }
            return
        }
        let semantics = SemanticsView(pass.semantics)
        var unmet: [String] = []
        if requested == .posterEventTicket {
            checkPosterEventTicket(pass, semantics: semantics, files: files, unmet: &unmet, context: &context)
        } else {
            checkSemanticBoardingPass(semantics, unmet: &unmet, context: &context)
        }
        if !unmet.isEmpty {
            context.warning(
                "preferredStyleSchemes",
                "this pass will show the classic \(style.rawValue) layout instead of \(requested.rawValue) because "
                    + "it lacks \(Self.list(unmet))"
            )
        }
    }

    /// Whether the pass asks for the poster event ticket layout: an `eventTicket` whose `preferredStyleSchemes`
    /// lists `posterEventTicket` (the one scheme with requirements for that style), so Apple's poster rules apply.
    static func asksForPosterEventTicket(_ pass: Pass) -> Bool {
        pass.style == .eventTicket
            && pass.preferredStyleSchemes?.contains(PassStyleScheme.posterEventTicket.rawValue) == true
    }

    private func checkPosterEventTicket(
        _ pass: Pass,
        semantics: SemanticsView,
        files: PreparedFiles,
        unmet: inout [String],
        context: inout ValidationContext
    ) {
        let reason = "required for a poster event ticket (preferredStyleSchemes lists posterEventTicket)"
        func require(_ path: String, _ present: Bool, _ reason: String) {
            guard !present else { return }
            unmet.append(path)
            context.error(path, reason)
        }
        if let nfc = pass.nfc {
            require("nfc.requiresAuthentication", nfc.requiresAuthentication != nil, reason)
        } else {
            require("nfc", false, reason)
        }
        require("semantics.eventName", semantics.has("eventName"), reason)
        require("semantics.venueName", semantics.has("venueName"), reason)
        let eventType = semantics.string("eventType")
        if eventType == "PKEventTypeSports" {
            let sports = "required for a poster event ticket whose semantics.eventType is PKEventTypeSports"
            require("semantics.awayTeamAbbreviation", semantics.has("awayTeamAbbreviation"), sports)
            require("semantics.homeTeamAbbreviation", semantics.has("homeTeamAbbreviation"), sports)
        } else if eventType == "PKEventTypeLivePerformance" {
            let live = "required for a poster event ticket whose semantics.eventType is PKEventTypeLivePerformance"
            require("semantics.performerNames", semantics.has("performerNames"), live)
            if !semantics.has("artistIDs") {
                context.warning(
                    "semantics.artistIDs",
                    "recommended for a live performance: Wallet links the performers' Apple Music pages from it"
                )
            }
        }
        if !files.imageBases.contains("artwork"), !files.imageBases.contains("background") {
            unmet.append("an artwork or background image")
            context.error(
                "artwork.png",
                "a poster event ticket needs an artwork image (artwork.png) or a background image (background.png)"
            )
        }
        if !semantics.has("eventStartDate") {
            context.warning("semantics.eventStartDate", "recommended for a poster event ticket: Wallet shows the date from it")
        } else if let start = semantics.string("eventStartDate").flatMap(W3CDate.date(from:)),
            let end = semantics.string("eventEndDate").flatMap(W3CDate.date(from:)), start > end
        {
            context.warning("semantics.eventEndDate", "is before semantics.eventStartDate")
        }
        if !semantics.has("seats") {
            context.warning("semantics.seats", "recommended for a poster event ticket: Wallet shows the seat from it")
        }
    }

    private func checkSemanticBoardingPass(
        _ semantics: SemanticsView,
        unmet: inout [String],
        context: inout ValidationContext
    ) {
        let reason = "required for a semantic boarding pass (preferredStyleSchemes lists semanticBoardingPass)"
        let required = [
            "airlineCode", "flightNumber", "originalBoardingDate", "originalDepartureDate", "originalArrivalDate",
            "departureAirportCode", "departureAirportTimeZone", "destinationAirportCode", "passengerName",
        ]
        for key in required where !semantics.has(key) {
            unmet.append("semantics.\(key)")
            context.error("semantics.\(key)", reason)
        }
        for key in ["departureCityName", "destinationCityName", "destinationAirportTimeZone", "seats"]
        where !semantics.has(key) {
            context.warning("semantics.\(key)", "recommended for a semantic boarding pass: Wallet shows it on the pass")
        }
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}

/// Reads `semantics` for the scheme requirements: a tag counts as present when it has a value that is
/// not empty (a string with more than spaces, a non-empty array, a name with at least one component).
/// A tag written in another library's spelling counts under Apple's, since it is written in Apple's.
struct SemanticsView {
    let members: [String: JSONValue]

    init(_ semantics: JSONValue?) {
        members = semantics?.objectValue ?? [:]
    }

    func value(_ key: String) -> JSONValue? {
        if let value = members[key] { return value }
        if let alias = PassSemanticTags.aliases(of: key).first(where: { members[$0] != nil }) { return members[alias] }
        return nil
    }

    func string(_ key: String) -> String? { value(key)?.stringValue }

    func has(_ key: String) -> Bool {
        switch value(key) {
        case nil, .null?: return false
        case .string(let text)?: return !text.trimmingWhitespace().isEmpty
        case .array(let elements)?: return !elements.isEmpty
        case .object(let members)?:
            return members.values.contains { ($0.stringValue.map { !$0.trimmingWhitespace().isEmpty }) ?? true }
        default: return true
        }
    }
}
