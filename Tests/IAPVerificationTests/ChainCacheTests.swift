import IAPTestSigning
import IAPVerification
import Testing

@Suite("Chain cache and concurrency")
struct ChainCacheTests {
    @Test("A cached chain still gets its time checked: inside validity OK, outside expired, inside OK again")
    func cacheKeepsTimeCheck() throws {
        // Leaf valid 2020-01-01 to 2022-01-01.
        let chain = try TestPKI.chain(options: .init(leafNotBefore: 1_577_836_800_000, leafNotAfter: 1_640_995_200_000))
        let verifier = try TestPKI.verifier(trusting: chain)
        let signer = JWSSigner(chain: chain)
        let inside: Int64 = 1_600_000_000_000
        let outside: Int64 = 1_700_000_000_000
        let first = try signer.sign(payload: TestPKI.payload(signedDate: inside, note: "first"))
        let second = try signer.sign(payload: TestPKI.payload(signedDate: outside, note: "second"))
        let third = try signer.sign(payload: TestPKI.payload(signedDate: inside + 1, note: "third"))
        #expect(TestPKI.reason(TestPKI.check(first, with: verifier, at: inside)) == nil)
        #expect(verifier.cachedChainCount == 1)
        #expect(TestPKI.reason(TestPKI.check(second, with: verifier, at: outside)) == .certificateExpired)
        #expect(TestPKI.reason(TestPKI.check(third, with: verifier, at: inside + 1)) == nil)
        // The very second the leaf expires is already outside, as OpenSSL counts it.
        #expect(TestPKI.reason(TestPKI.check(first, with: verifier, at: 1_640_995_200_000)) == .certificateExpired)
        #expect(TestPKI.reason(TestPKI.check(first, with: verifier, at: 1_640_995_199_999)) == nil)
        #expect(TestPKI.reason(TestPKI.check(first, with: verifier, at: 1_577_836_800_000)) == nil)
        #expect(TestPKI.reason(TestPKI.check(first, with: verifier, at: 1_577_836_799_999)) == .certificateExpired)
    }

    @Test("A cached chain does not vouch for a bad signature: the same JWS with its signature tampered fails")
    func aCachedChainDoesNotVouchForABadSignature() throws {
        let chain = try TestPKI.chain()
        let verifier = try TestPKI.verifier(trusting: chain)
        let jws = try JWSSigner(chain: chain).sign(payload: TestPKI.payload())
        #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == nil)
        var parts = jws.split(separator: ".").map(String.init)
        var signature = Array(parts[2])
        signature[10] = signature[10] == "A" ? "B" : "A"
        parts[2] = String(signature)
        #expect(TestPKI.reason(TestPKI.check(parts.joined(separator: "."), with: verifier)) == .badSignature)
    }

    @Test("The key's reused verify contexts give each signature its own answer, whatever came before it")
    func reusedContextsDoNotCarryResults() throws {
        let chain = try TestPKI.chain()
        let verifier = try TestPKI.verifier(trusting: chain)
        let signer = JWSSigner(chain: chain)
        let good = try (0..<4).map { try signer.sign(payload: TestPKI.payload(note: "reuse-\($0)")) }
        // A valid signature moved onto another payload, and a flipped last character: both must fail every time.
        let swapped =
            good[0].split(separator: ".")[0...1].joined(separator: ".") + "."
            + good[1].split(separator: ".")[2]
        let flipped = String(good[2].dropLast()) + (good[2].hasSuffix("A") ? "B" : "A")
        let sequence: [(String, Bool)] = [
            (good[0], true), (swapped, false), (good[1], true), (flipped, false), (flipped, false),
            (good[2], true), (swapped, false), (good[3], true), (good[0], true),
        ]
        let answers = sequence.map { TestPKI.reason(TestPKI.check($0.0, with: verifier)) }
        #expect(answers == sequence.map { $0.1 ? nil : .badSignature })
    }

    @Test("The cache stays bounded when many distinct chains are seen")
    func cacheIsBounded() throws {
        let roots = try (0..<70).map { try TestPKI.chain("bounded-\($0)") }
        let verifier = try JWSVerifier(trustedRoots: roots.map { try TrustedRoot(der: $0.rootDER) })
        for chain in roots {
            let jws = try JWSSigner(chain: chain).sign(payload: TestPKI.payload())
            #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == nil)
        }
        #expect(verifier.cachedChainCount <= 64)
        #expect(verifier.parsedCertificateCount <= 64)
    }

    @Test("A chain that fails is refused every time, and its certificates are parsed once")
    func failingChainParsedOnce() throws {
        let trusted = try TestPKI.chain("parsed-trusted")
        let foreign = try TestPKI.chain("parsed-foreign")
        let verifier = try TestPKI.verifier(trusting: trusted)
        let stranger = try (0..<3).map {
            try JWSSigner(chain: foreign).sign(payload: TestPKI.payload(note: "stranger-\($0)"))
        }
        for jws in stranger + stranger {
            #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == .untrustedChain)
        }
        #expect(verifier.cachedChainCount == 0)
        #expect(verifier.parsedCertificateCount == 2)
        let own = try JWSSigner(chain: trusted).sign(payload: TestPKI.payload(note: "own"))
        #expect(TestPKI.reason(TestPKI.check(own, with: verifier)) == nil)
        #expect(verifier.parsedCertificateCount == 4)
        #expect(TestPKI.reason(TestPKI.check(stranger[0], with: verifier)) == .untrustedChain)
    }

    @Test("Many tasks verify at once with one verifier, sharing cached chains")
    func concurrentVerification() async throws {
        let chains = try ["alpha", "beta"].map { try TestPKI.chain($0) }
        let verifier = try JWSVerifier(trustedRoots: chains.map { try TrustedRoot(der: $0.rootDER) })
        var documents: [(jws: String, valid: Bool)] = []
        for (index, chain) in chains.enumerated() {
            let signer = JWSSigner(chain: chain)
            for item in 0..<40 {
                let jws = try signer.sign(payload: TestPKI.payload(note: "\(index)-\(item)"))
                // Every fifth document is tampered so failures interleave with successes.
                documents.append(item % 5 == 0 ? (String(jws.dropLast(3)) + "AAA", false) : (jws, true))
            }
        }
        let snapshot = documents
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for (offset, document) in snapshot.enumerated() where offset % 8 == worker {
                        let ok = TestPKI.reason(TestPKI.check(document.jws, with: verifier)) == nil
                        if ok != document.valid { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(verifier.cachedChainCount == 2)
    }
}
