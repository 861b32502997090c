extension DocumentShape {
    /// Recognises a body object; `path` prefixes key paths in messages (`"body."` inside an envelope).
    static func recogniseBody(_ object: JSONObject, path: String) throws(FormatFailure) -> DocumentBody {
        if let history = object["notificationHistory"] {
            guard let items = history.arrayValue else {
                throw badField(path + "notificationHistory", "is \(history.typeDescription); expected an array")
            }
            let entries = items.enumerated().map { historyEntry($1, number: $0 + 1) }
            return .notificationHistoryPage(
                entries: entries,
                paginationToken: try optionalString(object, "paginationToken", path: path),
                hasMore: try optionalBool(object, "hasMore", path: path)
            )
        }
        if let signedPayload = object["signedPayload"] {
            guard let jws = signedPayload.stringValue else {
                throw badField(path + "signedPayload", "is \(signedPayload.typeDescription); expected a JWS string")
            }
            return .v2Notification(signedPayload: jws)
        }
        if let type = object["notification_type"] {
            return try v1Notification(object, type: type, path: path)
        }
        if let transactions = object["signedTransactions"] {
            guard let items = transactions.arrayValue else {
                throw badField(
                    path + "signedTransactions", "is \(transactions.typeDescription); expected an array of JWS strings")
            }
            let entries = items.enumerated().map { transactionEntry($1, number: $0 + 1) }
            if let status = object["status"] {
                // 0 (valid order) and 1 (invalid order) are today's values; older documentation had more, and
                // Apple may add others: an unknown integer is kept as sent, as Apple's libraries keep it.
                guard let code = status.int64Value, Int32(exactly: code) != nil else {
                    let shown = status.numberValue?.text ?? status.typeDescription
                    throw badField(
                        path + "status",
                        "is \(shown); expected an integer status such as 0 (valid order) or 1 (invalid order)")
                }
                return .orderLookup(
                    orderId: try orderId(object["orderId"], path: path), status: Int(code), entries: entries)
            }
            // Get Transaction History pages say which app and environment they are about; refund pages do not.
            if object["bundleId"] != nil || object["appAppleId"] != nil || object["environment"] != nil {
                return .transactionHistoryPage(
                    entries: entries,
                    revision: try optionalString(object, "revision", path: path),
                    hasMore: try optionalBool(object, "hasMore", path: path)
                )
            }
            return .refundHistoryPage(
                entries: entries,
                revision: try optionalString(object, "revision", path: path),
                hasMore: try optionalBool(object, "hasMore", path: path)
            )
        }
        throw unknownShape(keys: object.keys)
    }

    private static func v1Notification(_ object: JSONObject, type: JSONValue, path: String) throws(FormatFailure)
        -> DocumentBody
    {
        guard type.stringValue != nil else {
            throw badField(
                path + "notification_type", "is \(type.typeDescription); expected a string such as \"DID_RENEW\"")
        }
        if let receipt = object["unified_receipt"] {
            guard receipt.objectValue != nil else {
                throw badField(path + "unified_receipt", "is \(receipt.typeDescription); expected an object")
            }
            return .v1Notification(body: object)
        }
        // Before 2021-03-10 Apple sent the receipt as top-level latest_receipt_info / latest_expired_receipt_info.
        for legacyKey in ["latest_receipt_info", "latest_expired_receipt_info"] {
            guard let legacy = object[legacyKey] else { continue }
            guard legacy.objectValue != nil || legacy.arrayValue != nil else {
                throw badField(path + legacyKey, "is \(legacy.typeDescription); expected an object")
            }
            return .v1Notification(body: object)
        }
        throw badField(
            path + "unified_receipt",
            "is missing; a V1 notification needs unified_receipt (or, before 2021, latest_receipt_info)"
        )
    }

    private static func historyEntry(_ item: JSONValue, number: Int) -> PageEntry {
        guard let entry = item.objectValue else {
            return .malformed("entry \(number) of notificationHistory is \(item.typeDescription), not an object")
        }
        guard let payload = entry["signedPayload"] else {
            return .malformed("entry \(number) of notificationHistory has no signedPayload")
        }
        guard let jws = payload.stringValue else {
            return .malformed(
                "signedPayload of entry \(number) of notificationHistory is \(payload.typeDescription), not a string")
        }
        return .jws(jws)
    }

    private static func transactionEntry(_ item: JSONValue, number: Int) -> PageEntry {
        guard let jws = item.stringValue else {
            return .malformed("entry \(number) of signedTransactions is \(item.typeDescription), not a JWS string")
        }
        return .jws(jws)
    }

    private static func orderId(_ value: JSONValue?, path: String) throws(FormatFailure) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        // Hand-saved archives sometimes write the order id as a number; keep its exact digits.
        case .number(let number)?: return number.text
        case let other?: throw badField(path + "orderId", "is \(other.typeDescription); expected a string")
        }
    }

    private static func optionalString(_ object: JSONObject, _ key: String, path: String) throws(FormatFailure)
        -> String?
    {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw badField(path + key, "is \(other.typeDescription); expected a string")
        }
    }

    /// JSON Booleans, and the strings "true"/"false" that some tools write when re-saving responses.
    private static func optionalBool(_ object: JSONObject, _ key: String, path: String) throws(FormatFailure) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case .string("true")?: return true
        case .string("false")?: return false
        case let other?: throw badField(path + key, "is \(other.typeDescription); expected true or false")
        }
    }
}
