import Foundation
import PassModel

/// What each kind of Google pass takes from Apple's semantics and fields.
extension MappingContext {
    mutating func fill(_ vertical: GoogleVertical, class classMembers: inout [String: JSONValue], object: inout [String: JSONValue]) {
        switch vertical {
        case .eventTicket: fillEventTicket(class: &classMembers, object: &object)
        case .flight: fillFlight(class: &classMembers, object: &object)
        case .transit: fillTransit(class: &classMembers, object: &object)
        case .loyalty: fillLoyalty(class: &classMembers, object: &object)
        case .offer: fillOffer(class: &classMembers, object: &object)
        case .generic: fillGeneric(class: &classMembers, object: &object)
        }
    }

    func semanticText(_ key: String) -> String? {
        switch semantics[key] {
        case .string(let text)?: return text
        case .integer(let number)?: return String(number)
        default: return nil
        }
    }

    private mutating func text(semantic key: String, orField fieldKeys: String...) -> String? {
        if let value = semanticText(key) {
            for fieldKey in fieldKeys where fields?.allFields.contains(where: { $0.key == fieldKey }) == true {
                consumedFields.insert(fieldKey)
            }
            return value
        }
        for fieldKey in fieldKeys {
            if let field = take(fieldKey) { return localizer.display(field) }
        }
        return nil
    }

    private func localized(_ text: String?) -> JSONValue? { text.map { localizer.localized($0) } }

    /// The holder's name from semantics (`passengerName`, `attendeeName` as PersonNameComponents) or a field.
    private mutating func personName(semantic key: String, orField fieldKeys: String...) -> String? {
        if case .object(let name)? = semantics[key] {
            let parts = ["namePrefix", "givenName", "middleName", "familyName", "nameSuffix"].compactMap { name[$0]?.stringValue }
            if !parts.isEmpty {
                for fieldKey in fieldKeys where fields?.allFields.contains(where: { $0.key == fieldKey }) == true { consumedFields.insert(fieldKey) }
                return parts.joined(separator: " ")
            }
        }
        for fieldKey in fieldKeys {
            if let field = take(fieldKey) { return localizer.display(field) }
        }
        return nil
    }

    private mutating func fillEventTicket(class classMembers: inout [String: JSONValue], object: inout [String: JSONValue]) {
        if let name = semanticText("eventName") ?? take("event", "eventName").flatMap({ $0.value?.stringValue }) ?? pass.description {
            classMembers["eventName"] = localizer.localized(name)
            consumedFields.insert("event")
        }
        var venue: [String: JSONValue] = [:]
        if let name = text(semantic: "venueName", orField: "venue") { venue["name"] = localizer.localized(name) }
        if let address = text(semantic: "venueAddress", orField: "address") { venue["address"] = localizer.localized(address) }
        if !venue.isEmpty { classMembers["venue"] = .object(venue) }
        var dateTime: [String: JSONValue] = [:]
        let start = semanticText("eventStartDate") ?? take("date")?.value?.stringValue
        if let start = start.flatMap(GoogleLocalizer.isoDateTime) {
            dateTime["start"] = .string(start)
            consumedFields.insert("date")
        }
        if let end = semanticText("eventEndDate").flatMap(GoogleLocalizer.isoDateTime) { dateTime["end"] = .string(end) }
        let doors = semanticText("venueDoorsOpenDate") ?? take("doors")?.value?.stringValue
        if let doors = doors.flatMap(GoogleLocalizer.isoDateTime) {
            dateTime["doorsOpen"] = .string(doors)
            consumedFields.insert("doors")
        }
        if !dateTime.isEmpty { classMembers["dateTime"] = .object(dateTime) }
        if let logo = image(named: "logo", description: pass.organizationName) { classMembers["logo"] = logo }
        var seat: [String: JSONValue] = [:]
        let seats = semantics["seats"]?[0]
        for (google, apple, field) in [("seat", "seatNumber", "seat"), ("row", "seatRow", "row"), ("section", "seatSection", "section")] {
            // The field first: it is what the holder reads on the Apple pass, and what the issuer changes.
            if let value = take(field).map({ localizer.display($0) }) ?? seats?[apple]?.stringValue {
                seat[google] = localizer.localized(value)
                consumedFields.insert(field)
            }
        }
        if let gate = text(semantic: "venueEntrance", orField: "gate", "entrance") { seat["gate"] = localizer.localized(gate) }
        if !seat.isEmpty { object["seatInfo"] = .object(seat) }
        if let holder = personName(semantic: "attendeeName", orField: "holder", "name", "attendee") {
            object["ticketHolderName"] = .string(holder)
        }
        object["ticketNumber"] = .string(pass.serialNumber ?? "")
        if let level = semanticText("admissionLevel") { object["ticketType"] = localizer.localized(level) }
    }

    private mutating func fillFlight(class classMembers: inout [String: JSONValue], object: inout [String: JSONValue]) {
        var carrier = semanticText("airlineCode")
        var number = semanticText("flightNumber")
        if carrier == nil || number == nil, let flight = take("flight")?.value?.stringValue {
            // An airline's IATA designator is two characters, one of which may be a digit (U2, 9W, B6): "U2 1234" is
            // U2's flight 1234, not U's flight 21234. Otherwise the letters before the first digit (an ICAO code).
            let compact = Array(flight.replacingOccurrences(of: " ", with: ""))
            let designator = compact.count > 2 && compact[0...1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
                && compact[0...1].contains(where: \.isLetter) && compact[2].isNumber ? 2 : nil
            let split = designator ?? (compact.firstIndex(where: \.isNumber) ?? compact.count)
            carrier = carrier ?? String(compact[..<split])
            number = number ?? String(compact[split...])
        } else {
            consumedFields.insert("flight")
        }
        var header: [String: JSONValue] = [:]
        if let carrier, !carrier.isEmpty { header["carrier"] = .object(["carrierIataCode": .string(carrier)]) }
        if let number, !number.isEmpty { header["flightNumber"] = .string(number) }
        if !header.isEmpty { classMembers["flightHeader"] = .object(header) }
        if let origin = text(semantic: "departureAirportCode", orField: "origin") {
            var airport: [String: JSONValue] = ["airportIataCode": .string(origin)]
            if let terminal = semanticText("departureTerminal") { airport["terminal"] = .string(terminal) }
            if let gate = text(semantic: "departureGate", orField: "gate") { airport["gate"] = .string(gate) }
            classMembers["origin"] = .object(airport)
        }
        if let destination = text(semantic: "destinationAirportCode", orField: "destination") {
            var airport: [String: JSONValue] = ["airportIataCode": .string(destination)]
            if let terminal = semanticText("destinationTerminal") { airport["terminal"] = .string(terminal) }
            classMembers["destination"] = .object(airport)
        }
        // Scheduled times are the original ones (the class's date, its id, never move with a delay); Apple's current
        // times, when they differ, are Google's estimated or actual ones.
        let departure = semanticText("originalDepartureDate") ?? semanticText("currentDepartureDate")
            ?? take("departs", "departure")?.value?.stringValue
        var date = ""
        if let departure, let local = GoogleLocalizer.localDateTime(departure) {
            classMembers["localScheduledDepartureDateTime"] = .string(local)
            consumedFields.insert("departs")
            date = String(local.prefix(10)).replacingOccurrences(of: "-", with: "")
        }
        if semanticText("originalDepartureDate") != nil,
           let current = semanticText("currentDepartureDate").flatMap(GoogleLocalizer.localDateTime),
           current != classMembers["localScheduledDepartureDateTime"]?.stringValue
        {
            classMembers["localEstimatedOrActualDepartureDateTime"] = .string(current)
        }
        let boarding = semanticText("currentBoardingDate") ?? semanticText("originalBoardingDate") ?? take("boarding")?.value?.stringValue
        if let boarding, let local = GoogleLocalizer.localDateTime(boarding) {
            classMembers["localBoardingDateTime"] = .string(local)
            consumedFields.insert("boarding")
        }
        if let arrival = (semanticText("originalArrivalDate") ?? semanticText("currentArrivalDate")).flatMap(GoogleLocalizer.localDateTime) {
            classMembers["localScheduledArrivalDateTime"] = .string(arrival)
            if semanticText("originalArrivalDate") != nil,
               let current = semanticText("currentArrivalDate").flatMap(GoogleLocalizer.localDateTime), current != arrival {
                classMembers["localEstimatedOrActualArrivalDateTime"] = .string(current)
            }
        }
        // One class per flight and date, as Google asks.
        if overrides.classId == nil, let carrier, let number {
            classMembers["id"] = .string(classId(suffix: "\(carrier)\(number)_\(date)"))
            object["classId"] = classMembers["id"]
        }
        if let passenger = personName(semantic: "passengerName", orField: "passenger", "name") {
            object["passengerName"] = .string(passenger)
        }
        let confirmation = text(semantic: "confirmationNumber", orField: "confirmation") ?? pass.serialNumber ?? ""
        object["reservationInfo"] = .object(["confirmationCode": .string(confirmation)])
        var seating: [String: JSONValue] = [:]
        if let seat = take("seat").map({ localizer.display($0) }) ?? semantics["seats"]?[0]?["seatNumber"]?.stringValue {
            seating["seatNumber"] = .string(seat)
            consumedFields.insert("seat")
        }
        if let group = text(semantic: "boardingGroup", orField: "group") { seating["boardingGroup"] = .string(group) }
        if let position = semanticText("boardingSequenceNumber") { seating["boardingPosition"] = .string(position) }
        if let fareClass = text(semantic: "ticketFareClass", orField: "class") { seating["seatClass"] = .string(fareClass) }
        if !seating.isEmpty { object["boardingAndSeatingInfo"] = .object(seating) }
    }

    private mutating func fillTransit(class classMembers: inout [String: JSONValue], object: inout [String: JSONValue]) {
        let types = ["PKTransitTypeTrain": "RAIL", "PKTransitTypeBus": "BUS", "PKTransitTypeBoat": "FERRY", "PKTransitTypeGeneric": "OTHER"]
        classMembers["transitType"] = .string(types[pass.boardingPass?.transitType?.rawValue ?? ""] ?? "OTHER")
        if let logo = image(named: "logo", description: pass.organizationName) { classMembers["logo"] = logo }
        object["tripType"] = .string("ONE_WAY")
        var leg: [String: JSONValue] = [:]
        if let origin = text(semantic: "departureStationName", orField: "origin") { leg["originName"] = localizer.localized(origin) }
        if let destination = text(semantic: "destinationStationName", orField: "destination") {
            leg["destinationName"] = localizer.localized(destination)
        }
        let departure = semanticText("originalDepartureDate") ?? take("departs", "departure")?.value?.stringValue
        if let departure, let iso = GoogleLocalizer.isoDateTime(departure) { leg["departureDateTime"] = .string(iso) }
        if let platform = text(semantic: "departurePlatform", orField: "platform") { leg["platform"] = .string(platform) }
        if !leg.isEmpty { object["ticketLeg"] = .object(leg) }
        if let passenger = personName(semantic: "passengerName", orField: "passenger", "name") {
            object["passengerNames"] = .string(passenger)
            object["passengerType"] = .string("SINGLE_PASSENGER")
        }
        object["ticketNumber"] = .string(pass.serialNumber ?? "")
    }

    private mutating func fillLoyalty(class classMembers: inout [String: JSONValue], object: inout [String: JSONValue]) {
        classMembers["programName"] = .string(localizer.text(pass.logoText ?? pass.organizationName ?? template.name))
        if let logo = image(named: "logo", description: pass.organizationName) { classMembers["programLogo"] = logo }
        classMembers["hexBackgroundColor"] = object.removeValue(forKey: "hexBackgroundColor")
        if let member = take("member", "fullName", "name") { object["accountName"] = .string(localizer.display(member)) }
        let number = take("number", "memberId", "account")
        object["accountId"] = .string(number.map { localizer.display($0) } ?? pass.serialNumber ?? "")
        if let points = take("points", "balance") {
            var balance: [String: JSONValue] = ["string": .string(localizer.display(points))]
            if case .integer(let value)? = points.value?.json { balance = ["int": .integer(value)] }
            var loyalty: [String: JSONValue] = ["balance": .object(balance)]
            if let label = points.label { loyalty["label"] = .string(localizer.text(label)) }
            object["loyaltyPoints"] = .object(loyalty)
        }
    }

    private mutating func fillOffer(class classMembers: inout [String: JSONValue], object: inout [String: JSONValue]) {
        let title = fields?.primaryFields?.first
        if let key = title?.key { consumedFields.insert(key) }
        classMembers["title"] = .string(title.map { localizer.display($0) } ?? localizer.text(pass.description ?? template.name))
        classMembers["provider"] = .string(localizer.text(pass.organizationName ?? template.name))
        classMembers["redemptionChannel"] = .string("BOTH")
        classMembers["hexBackgroundColor"] = object.removeValue(forKey: "hexBackgroundColor")
        if let logo = image(named: "logo", description: pass.organizationName) { classMembers["titleImage"] = logo }
    }

    private mutating func fillGeneric(class classMembers: inout [String: JSONValue], object: inout [String: JSONValue]) {
        object["cardTitle"] = localizer.localized(pass.logoText ?? pass.organizationName ?? template.name)
        let primary = fields?.primaryFields?.first
        if let key = primary?.key { consumedFields.insert(key) }
        object["header"] = localizer.localized(primary.map { localizer.display($0) } ?? pass.description ?? template.name)
        if let label = primary?.label { object["subheader"] = localizer.localized(label) }
        if let logo = image(named: "logo", description: pass.organizationName) { object["logo"] = logo }
        object["genericType"] = .string("GENERIC_OTHER")
        // A generic class holds no issuer name or review status: generic passes need no review.
        classMembers["issuerName"] = nil
        classMembers["localizedIssuerName"] = nil
        classMembers["reviewStatus"] = nil
    }
}
