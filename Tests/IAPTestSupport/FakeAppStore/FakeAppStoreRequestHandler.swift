import Foundation
import NIOCore
import NIOHTTP1

/// One connection's HTTP/1.1 requests: collects the body, asks the server, writes the answer.
final class FakeAppStoreRequestHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: FakeAppStoreServer
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(server: FakeAppStoreServer) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            let answer = server.answer(method: head.method.rawValue, uri: head.uri, headers: head.headers, body: body)
            let keepAlive = head.isKeepAlive
            let version = head.version
            let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
            let respond: @Sendable () -> Void = {
                let context = loopBoundContext.value
                let gzip = answer.body.count >= 2 && answer.body[0] == 0x1f && answer.body[1] == 0x8b
                var length = answer.body.count
                if case .oversized(let size)? = answer.fault { length = size }
                var headers = HTTPHeaders([
                    ("Content-Type", gzip ? "application/a-gzip" : "application/json"),
                    ("Content-Length", String(length)),
                ])
                if !keepAlive { headers.add(name: "Connection", value: "close") }
                if case .redirect(let location)? = answer.fault { headers.add(name: "Location", value: location) }
                if case .retryAfter(_, let seconds)? = answer.fault {
                    headers.add(name: "Retry-After", value: String(seconds))
                }
                context.write(
                    self.wrapOutboundOut(
                        .head(
                            HTTPResponseHead(
                                version: version, status: HTTPResponseStatus(statusCode: answer.status),
                                headers: headers))), promise: nil)
                if case .trickle(let interval)? = answer.fault {
                    // One byte per interval, for as long as the client listens.
                    let nanoseconds =
                        Int64(interval.components.seconds) * 1_000_000_000 + interval.components.attoseconds
                        / 1_000_000_000
                    let bytes = answer.body
                    @Sendable func send(_ index: Int) {
                        let context = loopBoundContext.value
                        guard index < bytes.count, context.channel.isActive else { return }
                        context.writeAndFlush(
                            self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: [bytes[index]])))), promise: nil)
                        context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { send(index + 1) }
                    }
                    send(0)
                    return
                }
                if case .oversized(let size)? = answer.fault {
                    // Spaces, a mebibyte at a time, each written when the last has left: the fake's memory stays
                    // small however much it sends, and it stops when the client hangs up.
                    let chunk = ByteBuffer(repeating: 0x20, count: 1 << 20)
                    @Sendable func send(_ sent: Int) {
                        let context = loopBoundContext.value
                        guard context.channel.isActive else { return }
                        guard sent < size else {
                            context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
                            return
                        }
                        let part = chunk.getSlice(at: 0, length: min(chunk.readableBytes, size - sent))!
                        context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(part)))).whenSuccess {
                            send(sent + part.readableBytes)
                        }
                    }
                    send(0)
                    return
                }
                context.write(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer.body)))), promise: nil)
                context.writeAndFlush(self.wrapOutboundOut(.end(nil))).whenComplete { _ in
                    if !keepAlive { loopBoundContext.value.close(promise: nil) }
                }
            }
            switch answer.fault {
            case .drop?:
                context.close(promise: nil)
            case .delay(let duration)?:
                context.eventLoop.scheduleTask(
                    in: .nanoseconds(
                        Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds
                            / 1_000_000_000)
                ) { respond() }
            default:
                respond()
            }
        }
    }
}
