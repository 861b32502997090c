import CFixedKeyECDSA
import COpenSSL
import Dispatch
import Foundation
import IAPFormats
import IAPPipeline
import IAPStore
import IAPVerification

// MARK: - Raw P-256 verify rate

/// A P-256 key and one signature over a JWS-sized message, made once.
struct FloorFixture: @unchecked Sendable {
    let key: OpaquePointer
    let message: [UInt8]
    let signature: [UInt8]

    init(messageBytes: Int) {
        let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil)!
        precondition(EVP_PKEY_keygen_init(context) == 1)
        precondition(EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1)
        var generated: OpaquePointer?
        precondition(EVP_PKEY_keygen(context, &generated) == 1)
        EVP_PKEY_CTX_free(context)
        key = generated!
        message = (0..<messageBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let sign = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(sign) }
        precondition(EVP_DigestSignInit(sign, nil, EVP_sha256(), nil, key) == 1)
        var length = 0
        precondition(EVP_DigestSign(sign, nil, &length, message, message.count) == 1)
        var bytes = [UInt8](repeating: 0, count: length)
        precondition(EVP_DigestSign(sign, &bytes, &length, message, message.count) == 1)
        signature = Array(bytes.prefix(length))
        // The same key with its table, and the signature as the raw r‖s a JWS carries.
        var point = [UInt8](repeating: 0, count: 65)
        var pointLength = 0
        precondition(EVP_PKEY_get_octet_string_param(key, "pub", &point, point.count, &pointLength) == 1)
        table = iaplens_fixed_key_new(point, pointLength)!
        var derPointer: UnsafePointer<UInt8>? = nil
        let parsed: OpaquePointer = signature.withUnsafeBufferPointer { buffer in
            derPointer = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &derPointer, buffer.count)!
        }
        var raw = [UInt8](repeating: 0, count: 64)
        precondition(BN_bn2binpad(ECDSA_SIG_get0_r(parsed), &raw, 32) == 32)
        raw.withUnsafeMutableBufferPointer { buffer in
            precondition(BN_bn2binpad(ECDSA_SIG_get0_s(parsed), buffer.baseAddress! + 32, 32) == 32)
        }
        ECDSA_SIG_free(parsed)
        rawSignature = raw
    }

    /// The key's precomputed table, read-only, shared by every thread.
    let table: OpaquePointer
    let rawSignature: [UInt8]

    /// SHA-256 of the message, then the check with the key's table.
    func verifyWithTable() -> Bool {
        guard let digest = messageDigest() else { return false }
        return iaplens_fixed_key_verify(table, digest, rawSignature) == 1
    }

    /// The message's SHA-256 through EVP_Digest*, as the verifier computes a signing input's.
    func messageDigest() -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: 32)
        let md = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(md) }
        var length: UInt32 = 0
        guard EVP_DigestInit_ex(md, EVP_sha256(), nil) == 1, EVP_DigestUpdate(md, message, message.count) == 1,
            EVP_DigestFinal_ex(md, &digest, &length) == 1
        else { return nil }
        return digest
    }

    /// SHA-256 fetched once (OpenSSL 3 otherwise looks the digest up on every init).
    nonisolated(unsafe) static let sha256 = EVP_MD_fetch(nil, "SHA256", nil)

    /// The variant measured: "verifier" (as LeafPublicKey: SHA-256, then EVP_PKEY_verify on a verify context
    /// initialised once per thread and reused, as `openssl speed` does), "fresh-context" (the same with a new
    /// context per signature, the verifier before session 4), "evp" (EVP_DigestVerify*, the verifier's calls before
    /// the digest was shared), "evp-fetched" (the same with the digest fetched once).
    static let variant = argument("--variant") ?? "verifier"

    /// A verify context for one thread.
    func makeContext() -> OpaquePointer {
        let context = EVP_PKEY_CTX_new(key, nil)!
        precondition(EVP_PKEY_verify_init(context) == 1)
        return context
    }

    func verify(reusing context: OpaquePointer) -> Bool {
        switch Self.variant {
        case "evp": return verifyEVP(EVP_sha256())
        case "evp-fetched": return verifyEVP(Self.sha256)
        case "fresh-context":
            let fresh = makeContext()
            defer { EVP_PKEY_CTX_free(fresh) }
            return verifyPKey(fresh)
        default: return verifyPKey(context)
        }
    }

    func verifyPKey(_ context: OpaquePointer) -> Bool {
        guard let digest = messageDigest() else { return false }
        return EVP_PKEY_verify(context, signature, signature.count, digest, 32) == 1
    }

    /// One verification through EVP_DigestVerify*.
    func verifyEVP(_ md: OpaquePointer?) -> Bool {
        let context = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, md, nil, key) == 1,
            EVP_DigestVerifyUpdate(context, message, message.count) == 1
        else { return false }
        return EVP_DigestVerifyFinal(context, signature, signature.count) == 1
    }
}

func threadCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Verifies on `threads` threads for about `seconds`; returns verifications per second of wall clock (all
/// threads) and per CPU-second (what one core does when nothing else competes for it).
func measureFloor(_ fixture: FloorFixture, threads: Int, seconds: Double, withTable: Bool = false) -> (
    wall: Double, perCPUSecond: Double
) {
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: threads)
    counts.initialize(repeating: 0, count: threads)
    defer { counts.deallocate() }
    let cpu = UnsafeMutablePointer<Double>.allocate(capacity: threads)
    cpu.initialize(repeating: 0, count: threads)
    defer { cpu.deallocate() }
    let cpuBox = UnsafeSendableDouble(cpu)
    let start = now()
    let deadline = start + seconds
    let box = UnsafeSendable(counts)
    DispatchQueue.concurrentPerform(iterations: threads) { index in
        var done = 0
        let context = fixture.makeContext()
        defer { EVP_PKEY_CTX_free(context) }
        let cpuStart = threadCPUTime()
        while true {
            for _ in 0..<64 { precondition(withTable ? fixture.verifyWithTable() : fixture.verify(reusing: context)) }
            done += 64
            if now() >= deadline { break }
        }
        box.pointer[index] = done
        cpuBox.pointer[index] = threadCPUTime() - cpuStart
    }
    let elapsed = now() - start
    let total = Double((0..<threads).reduce(0) { $0 + counts[$1] })
    let cpuSeconds = (0..<threads).reduce(0.0) { $0 + cpu[$1] }
    return (total / elapsed, total / cpuSeconds)
}

struct UnsafeSendableDouble: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Double>
    init(_ pointer: UnsafeMutablePointer<Double>) { self.pointer = pointer }
}

struct UnsafeSendable: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int>
    init(_ pointer: UnsafeMutablePointer<Int>) { self.pointer = pointer }
}

func runFloor() {
    let seconds = argument("--seconds").flatMap(Double.init) ?? 3
    // 64 bytes like `openssl speed` (pure verify) and ~5 KB like a notification's signing input.
    for size in [64, 5_000] {
        let fixture = FloorFixture(messageBytes: size)
        _ = measureFloor(fixture, threads: 1, seconds: 0.3)  // warm up
        let single = measureFloor(fixture, threads: 1, seconds: seconds)
        let all = measureFloor(fixture, threads: threads, seconds: seconds)
        let suffix = size == 64 ? "" : "_5kb"
        print(String(format: "floor_verify_per_s_1_thread%@ %.0f", suffix, single.wall))
        print(String(format: "floor_verify_per_s_%d_threads%@ %.0f", threads, suffix, all.wall))
        print(String(format: "floor_verify_per_cpu_s%@ %.0f", suffix, all.perCPUSecond))
    }
    // Ingest's own check once a key has its table: what the signature checks of a verified ingest cost.
    let fixture = FloorFixture(messageBytes: 64)
    _ = measureFloor(fixture, threads: 1, seconds: 0.3, withTable: true)
    let single = measureFloor(fixture, threads: 1, seconds: seconds, withTable: true)
    let all = measureFloor(fixture, threads: threads, seconds: seconds, withTable: true)
    print(String(format: "table_verify_per_s_1_thread %.0f", single.wall))
    print(String(format: "table_verify_per_s_%d_threads %.0f", threads, all.wall))
    print(String(format: "table_verify_per_cpu_s %.0f", all.perCPUSecond))
    print("floor_threads \(threads)")
}
