extension PaymentNetwork {
    /// The name PassKit's `PKPaymentNetwork` gives a card scheme whose account numbers are its alone (`Visa`,
    /// `MasterCard`, `AmEx`, `Discover`, `JCB`), as a token's `paymentMethod.network` carries it; `nil` for another
    /// network.
    public var schemeName: String? {
        switch rawValue.lowercased() {
        case "visa": "Visa"
        case "mastercard": "MasterCard"
        case "amex": "AmEx"
        case "discover": "Discover"
        case "jcb": "JCB"
        default: nil
        }
    }

    /// The scheme an account number (a card's, or Apple Pay's device account number) belongs to by its leading
    /// digits: Visa 4; Mastercard 51-55 and 2221-2720; American Express 34 and 37; Discover 6011, 644-649 and 65;
    /// JCB 3528-3589. `nil` for a number in none of these ranges, or not made of 12 to 19 digits.
    ///
    /// A number of one of these schemes may also carry a domestic scheme (Cartes Bancaires, eftpos, mada on a Visa
    /// or Mastercard number): the scheme here is the international one.
    /// - Parameter accountNumber: The digits.
    public static func scheme(ofAccountNumber accountNumber: String) -> PaymentNetwork? {
        let digits = Array(accountNumber.utf8)
        guard (12...19).contains(digits.count), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        func prefix(_ length: Int) -> Int { digits.prefix(length).reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } }
        switch (prefix(1), prefix(2), prefix(3), prefix(4)) {
        case (4, _, _, _): return .visa
        case (_, 51...55, _, _), (_, _, _, 2221...2720): return .masterCard
        case (_, 34, _, _), (_, 37, _, _): return .amex
        case (_, _, _, 6011), (_, _, 644...649, _), (_, 65, _, _): return .discover
        case (_, _, _, 3528...3589): return PaymentNetwork(rawValue: "jcb")
        default: return nil
        }
    }

    /// The scheme a decrypted card stands for: its number's (``scheme(ofAccountNumber:)``), whatever network a request
    /// names for it, unless the name is a domestic network that numbers of that scheme carry (Cartes Bancaires on a
    /// Visa number), which then stands as named (`nil`); `nil` too for a number in no scheme's range. A domestic name
    /// on a number its network is never issued on (Maestro on an American Express number) does not stand: the name is
    /// outside Apple's signature.
    /// - Parameters:
    ///   - accountNumber: The decrypted account number.
    ///   - named: The network the request names (outside Apple's signature), if any.
    public static func scheme(ofAccountNumber accountNumber: String, named: String?) -> PaymentNetwork? {
        guard let scheme = scheme(ofAccountNumber: accountNumber) else { return nil }
        if let named, PaymentNetwork(rawValue: named).schemeName == nil,
           coBadged[named.lowercased()]?.contains(scheme.rawValue.lowercased()) == true {
            return nil
        }
        return scheme
    }

    /// Domestic and regional networks (PassKit's names, lowercased) and the international schemes whose numbers they
    /// are issued on, as a co-badged card carries both.
    static let coBadged: [String: Set<String>] = {
        let visaAndMastercard: Set<String> = ["visa", "mastercard"]
        return [
            "cartesbancaires": visaAndMastercard, "eftpos": visaAndMastercard, "mada": visaAndMastercard,
            "girocard": visaAndMastercard, "interac": visaAndMastercard, "meeza": visaAndMastercard,
            "jaywan": visaAndMastercard, "dankort": ["visa"], "electron": ["visa"], "vpay": ["visa"],
            "maestro": ["mastercard"], "bancontact": ["mastercard"], "bancomat": ["mastercard"],
            "pagobancomat": ["mastercard"], "elo": ["visa", "mastercard", "discover"], "chinaunionpay": ["discover"],
        ]
    }()
}
