import Foundation
import OrderModel
import PassModel
import Testing

@Suite("order.json validation")
struct OrderValidatorTests {
    @Test func theFixtureIsValidWithoutWarnings() {
        let report = OrderFixtures.validate(OrderFixtures.tree)
        #expect(report.issues.isEmpty, "\(report.issues)")
    }

    @Test func anHTTPWebServiceURLIsAWarningOnThisMachineAndAnErrorElsewhere() {
        let local = OrderFixtures.validate(OrderFixtures.tree.setting(["webServiceURL"], to: "http://127.0.0.1:8080"))
        #expect(local.isValid, "\(local.issues)")
        #expect(local.issues(at: "webServiceURL").contains { $0.severity == .warning && $0.message.contains("development") })
        let remote = OrderFixtures.validate(OrderFixtures.tree.setting(["webServiceURL"], to: "http://shop.example.com/wallet"))
        #expect(remote.issues(at: "webServiceURL").contains { $0.severity == .error && $0.message.contains("https") })
        let management = OrderFixtures.validate(
            OrderFixtures.tree.setting(["orderManagementURL"], to: "http://localhost/orders/1001"))
        #expect(management.issues(at: "orderManagementURL").contains { $0.severity == .error })
    }

    @Test func reportsEveryProblemAtOnceWithItsPath() {
        let tree = OrderFixtures.tree
            .setting(["createdAt"], to: "2026-05-07 10:30")
            .setting(["updatedAt"], to: "2026-05-06T10:30:00Z")
            .setting(["status"], to: "shipped")
            .setting(["orderManagementURL"], to: "http://shop.example.com/orders/1001")
            .setting(["merchant", "displayName"], to: nil)
            .setting(["payment", "total", "amount"], to: .number(19.999))
            .setting(["lineItems", 0, "price", "currency"], to: "XYZ")
            .setting(["fulfillments", 0, "status"], to: "lost")
            .setting(["fulfillments", 0, "trackingURL"], to: "ftp://ups.example.com")
            .setting(["fulfillments", 1, "pickupWindowDuration"], to: "8 hours")
            .setting(["orderIdentifier"], to: "")
        let report = OrderFixtures.validate(tree)
        let expected: [(String, String)] = [
            ("createdAt", "RFC 3339"),
            ("status", "unknown value \"shipped\""),
            ("orderManagementURL", "must be an https URL"),
            ("merchant.displayName", "required key is missing"),
            ("payment.total.amount", "19.999 has 3 decimal places; USD has 2"),
            ("lineItems[0].price.currency", "not an ISO 4217 currency code"),
            ("fulfillments[0].status", "unknown value \"lost\""),
            ("fulfillments[0].trackingURL", "must be an https URL"),
            ("fulfillments[1].pickupWindowDuration", "ISO 8601 duration"),
            ("orderIdentifier", "must not be empty"),
        ]
        for (path, message) in expected {
            #expect(report.issues(at: path).contains { $0.severity == .error && $0.message.contains(message) },
                    "\(path): \(report.issues(at: path))")
        }
        #expect(report.errors.count == expected.count, "\(report.errors)")
    }

    @Test func anAmountBeyondWhatIsKeptExactlyIsRefused() {
        let long = "12345678901234567890123456789012345678.91"
        let report = OrderFixtures.validate(OrderFixtures.tree.setting(["payment", "total", "amount"], to: .string(long)))
        #expect(report.issues(at: "payment.total.amount").contains { $0.severity == .error && $0.message.contains("40 significant digits") },
                "\(report.issues(at: "payment.total.amount"))")
        let large = OrderFixtures.validate(OrderFixtures.tree.setting(["payment", "total", "amount"], to: .string("123456789012345678.99")))
        #expect(large.issues(at: "payment.total.amount").isEmpty, "\(large.issues(at: "payment.total.amount"))")
    }

    @Test func aMissingOrderNumberIsAWarningAnEmptyOneAnError() {
        let missing = OrderFixtures.validate(OrderFixtures.tree.setting(["orderNumber"], to: nil))
        #expect(missing.isValid)
        #expect(missing.issues(at: "orderNumber").first?.severity == .warning)
        let empty = OrderFixtures.validate(OrderFixtures.tree.setting(["orderNumber"], to: " "))
        #expect(empty.issues(at: "orderNumber").first == ValidationIssue(severity: .error, path: "orderNumber", message: "must not be empty"))
    }

    @Test func updatedAtBeforeCreatedAtIsAnError() {
        let report = OrderFixtures.validate(OrderFixtures.tree.setting(["updatedAt"], to: "2026-05-07T09:00:00Z"))
        #expect(report.issues(at: "updatedAt").first?.message.contains("before createdAt") == true)
    }

    @Test func valuesOfTheWrongTypeAreReportedAndTheRestStillChecked() {
        let tree = OrderFixtures.tree.setting(["orderNumber"], to: 1001)
            .setting(["lineItems", 0, "title"], to: ["Mug"])
            .setting(["merchant", "url"], to: "http://shop.example.com")
        let report = OrderFixtures.validate(tree)
        #expect(report.issues(at: "orderNumber").first?.message == "expected a string, found number")
        #expect(report.issues(at: "lineItems[0].title").first?.message == "expected a string, found array")
        #expect(report.issues(at: "merchant.url").first?.message.contains("https") == true)
    }

    @Test func anUnknownFulfillmentTypeIsReportedAndTheRestStillChecked() {
        let tree = OrderFixtures.tree.setting(["fulfillments", 1, "fulfillmentType"], to: "drone")
            .setting(["fulfillments", 0, "status"], to: "lost")
        let report = OrderFixtures.validate(tree)
        #expect(report.issues(at: "fulfillments[1].fulfillmentType").first?.message
            == "unknown fulfillmentType \"drone\", expected shipping or pickup")
        #expect(report.issues(at: "fulfillments[0].status").first?.message.contains("unknown value \"lost\"") == true)
    }

    @Test func unknownKeysAreWarningsWithTheirPaths() {
        let tree = OrderFixtures.tree.setting(["colour"], to: "red")
            .setting(["fulfillments", 0, "signature"], to: true)
            .setting(["associatedApplicationIdentifiers"], to: ["A1B2C3D4E5.com.example.shop"])
            .setting(["fulfillments", 0, "recipient", "emailAddress"], to: "ada@example.com")
            .setting(["lineItems", 0, "productIdentifier"], to: "P-1")
        let report = OrderFixtures.validate(tree)
        #expect(report.isValid)
        // Apple's ShippingFulfillment.Recipient has names and an address only; LineItem has no productIdentifier.
        #expect(report.warnings.map(\.path).sorted() == [
            "colour", "fulfillments[0].recipient.emailAddress", "fulfillments[0].signature", "lineItems[0].productIdentifier",
        ])
    }

    @Test func imagesMustBeInTheBundleReadableAndSmall() {
        var files = OrderFixtures.files
        files["mug.png"] = nil
        files["logo.png"] = Data(repeating: 7, count: OrderValidator.maximumImageSize + 1)
        files["fr.lproj/order.strings"] = Data("\"a\" = \"b\"".utf8)
        let report = OrderFixtures.validate(OrderFixtures.tree, files: files)
        #expect(report.issues(at: "lineItems[0].image").first?.message == "\"mug.png\" is not in the bundle")
        #expect(report.issues(at: "logo.png").contains { $0.message.contains("at most 2 MiB") })
        #expect(report.issues(at: "logo.png").contains { $0.message.contains("not a readable PNG") })
        #expect(!report.issues(at: "fr.lproj/order.strings").isEmpty)
    }

    @Test("an image in several localization folders: each language's file is checked, and the root one is preferred")
    func localizedImagesAllChecked() {
        var files = OrderFixtures.files
        let good = files["logo.png"]!
        files["logo.png"] = nil
        files["de.lproj/logo.png"] = good
        files["en.lproj/logo.png"] = good
        files["fr.lproj/logo.png"] = good.prefix(40)  // cut short
        for _ in 0..<5 {  // the same answer whatever order the dictionary gives
            let report = OrderFixtures.validate(OrderFixtures.tree, files: files)
            #expect(report.issues(at: "fr.lproj/logo.png").contains { $0.message.contains("not a readable PNG") }, "\(report.issues)")
            #expect(report.issues(at: "de.lproj/logo.png").isEmpty && report.issues(at: "en.lproj/logo.png").isEmpty)
        }
        #expect(OrderValidator.resolve("logo", in: files)?.path == "de.lproj/logo.png")
        files["logo.png"] = good
        #expect(OrderValidator.resolve("logo", in: files)?.path == "logo.png")
        #expect(OrderValidator.resolveAll("logo.png", in: files).map(\.path)
                == ["logo.png", "de.lproj/logo.png", "en.lproj/logo.png", "fr.lproj/logo.png"])
    }

    @Test func fulfillmentStatusesOnlyMoveForward() throws {
        let previous = try Order(jsonData: OrderFixtures.data)
        func next(_ changes: (JSONValue) -> JSONValue) throws -> Order {
            try Order(jsonData: changes(OrderFixtures.tree.setting(["updatedAt"], to: "2026-05-08T08:00:00Z")).jsonData())
        }
        let forward = try next { $0.setting(["fulfillments", 0, "status"], to: "delivered")
            .setting(["fulfillments", 1, "status"], to: "pickedUp") }
        #expect(OrderValidator().validateTransition(from: previous, to: forward).issues.isEmpty)

        let backward = try next { $0.setting(["fulfillments", 0, "status"], to: "processing")
            .setting(["fulfillments", 1, "status"], to: "open")
            .setting(["updatedAt"], to: "2026-05-07T08:00:00Z") }
        let report = OrderValidator().validateTransition(from: previous, to: backward)
        #expect(report.issues(at: "fulfillments[0].status").first?.message.contains("only move forward") == true)
        #expect(report.issues(at: "fulfillments[1].status").first?.message.contains("only move forward") == true)
        #expect(report.issues(at: "updatedAt").first?.message.contains("not later") == true)

        #expect(OrderValidator.transitionProblem(from: "delivered", to: "issue", fulfillmentType: "shipping") != nil)
        #expect(OrderValidator.transitionProblem(from: "issue", to: "outForDelivery", fulfillmentType: "shipping") == nil)
        #expect(OrderValidator.transitionProblem(from: "onTheWay", to: "cancelled", fulfillmentType: "shipping") == nil)
    }

    @Test func enumerationsAreExactlyApples() {
        let valid = OrderFixtures.tree.setting(["changeNotifications"], to: "disabledIfAppInstalled")
            .setting(["payment", "status"], to: "declined")
            .setting(["returns"], to: [["returnIdentifier": "R-1", "status": "onTheWay"], ["returnIdentifier": "R-2", "status": "completed"]])
        #expect(OrderFixtures.validate(valid).isValid, "\(OrderFixtures.validate(valid).issues)")
        #expect(OrderFixtures.validate(OrderFixtures.tree.setting(["payment", "status"], to: "voided")).isValid)
        let invalid = OrderFixtures.tree.setting(["changeNotifications"], to: "disabled")
            .setting(["payment", "status"], to: "cancelled")
            .setting(["returns"], to: [["returnIdentifier": "R-1", "status": "outForDelivery"], ["returnIdentifier": "R-2", "status": "delivered"]])
            .setting(["payment", "transactions", 0, "status"], to: "paid")
            .setting(["payment", "transactions", 0, "transactionType"], to: "sale")
            .setting(["fulfillments", 1, "status"], to: "onTheWay")
        let report = OrderFixtures.validate(invalid)
        for path in ["changeNotifications", "payment.status", "returns[0].status", "returns[1].status",
                     "payment.transactions[0].status", "payment.transactions[0].transactionType", "fulfillments[1].status"] {
            #expect(report.issues(at: path).contains { $0.severity == .error && $0.message.hasPrefix("unknown value") },
                    "\(path): \(report.issues)")
        }
        #expect(report.errors.count == 7, "\(report.errors)")
    }

    @Test func requiredKeysAreApples() {
        let tree = OrderFixtures.tree.setting(["fulfillments", 1, "displayName"], to: nil)
            .setting(["fulfillments", 1, "barcode", "messageEncoding"], to: nil)
            .setting(["payment", "transactions", 0, "paymentMethod"], to: nil)
            .setting(["payment", "transactions", 0, "createdAt"], to: nil)
            .setting(["returnInfo"], to: ["displayCountdown": true])
            .setting(["orderProvider"], to: ["displayName": "Tracker"])
            .setting(["associatedApplications"], to: [["launchURL": "shop://orders"]])
            .setting(["fulfillments", 1, "location"], to: ["latitude": 91])
            .setting(["returns"], to: [["status": "open"]])
        let report = OrderFixtures.validate(tree)
        for path in ["fulfillments[1].displayName", "fulfillments[1].barcode.messageEncoding",
                     "payment.transactions[0].paymentMethod", "payment.transactions[0].createdAt",
                     "returnInfo.returnPolicyURL", "returnInfo.returnDeadline", "orderProvider.url",
                     "orderProvider.trackingLogoNameDarkColorScheme", "orderProvider.trackingLogoNameLightColorScheme",
                     "associatedApplications[0].storeIdentifier", "fulfillments[1].location.longitude",
                     "fulfillments[1].location.latitude", "returns[0].returnIdentifier"] {
            #expect(report.issues(at: path).contains { $0.severity == .error }, "\(path): \(report.issues)")
        }
        #expect(report.errors.count == 13, "\(report.errors)")
    }

    @Test func theLogoIsOptionalAndImagesMayBeNamedWithoutScaleOrExtension() {
        let withoutLogo = OrderFixtures.validate(OrderFixtures.tree.setting(["merchant", "logo"], to: nil))
        #expect(withoutLogo.isValid)
        #expect(withoutLogo.issues(at: "merchant.logo").first?.severity == .warning)
        var files = OrderFixtures.files
        files["logo.png"] = nil
        files["logo@2x.png"] = OrderFixtures.png(width: 200, height: 200)
        let named = OrderFixtures.validate(OrderFixtures.tree.setting(["merchant", "logo"], to: "logo"), files: files)
        #expect(named.isValid, "\(named.issues)")
        let receipt = OrderFixtures.validate(OrderFixtures.tree.setting(["payment", "transactions", 0, "receipt"], to: "receipt.pdf"))
        #expect(receipt.issues(at: "payment.transactions[0].receipt").first?.message == "\"receipt.pdf\" is not in the bundle")
    }
}
