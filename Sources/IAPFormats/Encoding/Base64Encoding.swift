/// Base64 encoding in both RFC 4648 alphabets, written for speed because the simulator encodes every payload; the
/// one encoder of the package (the signer, the simulator and the tests use it; ``Base64Decoding`` reads it back).
public enum Base64Encoding {
    private static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let url = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Standard alphabet with `=` padding, as used in `x5c` and PEM.
    public static func standard(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: standard, pad: true) }

    /// URL-safe alphabet without padding, as used in JWS compact segments.
    public static func url(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: url, pad: false) }

    /// PEM armour: standard base64 in 64-character lines between BEGIN/END lines, ending in a newline.
    public static func pem(_ der: [UInt8], label: String) -> String {
        let body = Array(standard(der).utf8)
        var lines: [String] = ["-----BEGIN \(label)-----"]
        var start = 0
        while start < body.count {
            let end = min(start + 64, body.count)
            lines.append(String(decoding: body[start..<end], as: UTF8.self))
            start = end
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
        let fullGroups = bytes.count / 3
        let remainder = bytes.count % 3
        let outputCount = fullGroups * 4 + (remainder == 0 ? 0 : (pad ? 4 : remainder + 1))
        return String(unsafeUninitializedCapacity: outputCount) { output in
            bytes.withUnsafeBufferPointer { input in
                alphabet.withUnsafeBufferPointer { table in
                    var out = 0
                    var index = 0
                    for _ in 0..<fullGroups {
                        let value =
                            UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                        output[out] = table[Int(value >> 18 & 0x3F)]
                        output[out + 1] = table[Int(value >> 12 & 0x3F)]
                        output[out + 2] = table[Int(value >> 6 & 0x3F)]
                        output[out + 3] = table[Int(value & 0x3F)]
                        out += 4
                        index += 3
                    }
                    if remainder > 0 {
                        let second = remainder == 2 ? UInt32(input[index + 1]) : 0
                        let value = UInt32(input[index]) << 16 | second << 8
                        output[out] = table[Int(value >> 18 & 0x3F)]
                        output[out + 1] = table[Int(value >> 12 & 0x3F)]
                        out += 2
                        if remainder == 2 {
                            output[out] = table[Int(value >> 6 & 0x3F)]
                            out += 1
                        }
                        if pad {
                            while out % 4 != 0 {
                                output[out] = UInt8(ascii: "=")
                                out += 1
                            }
                        }
                    }
                    return out
                }
            }
        }
    }
}
