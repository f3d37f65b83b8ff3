import XCTest
@testable import Salvo

/// The request lifecycle's rules as tables: from a state reached by a list of events, one
/// more event gives a state, a phase and an action. No socket, no wait.
final class RequestLifecycleTests: XCTestCase {
    /// Stands for a running transfer: the lifecycle only compares it by identity.
    final class Handle: Sendable {}

    typealias Lifecycle = RequestLifecycle<Handle>

    /// An event, with the handle it names where it names one.
    enum Event: CustomStringConvertible {
        case resume, suspend, cancel, setUpEagerly, attemptPrepared
        case handlerAdded(startsImmediately: Bool)
        case transferReady(Int), transferEnded(Int)
        case redirected(limit: Int)
        case failed
        case retryDecided(Lifecycle.RetryDecision)
        case backOffEnded
        case finish

        var description: String {
            switch self {
            case .resume: "resume"
            case .suspend: "suspend"
            case .cancel: "cancel"
            case .setUpEagerly: "setUpEagerly"
            case .attemptPrepared: "attemptPrepared"
            case let .handlerAdded(immediately): "handlerAdded(\(immediately))"
            case let .transferReady(index): "transferReady(#\(index))"
            case let .transferEnded(index): "transferEnded(#\(index))"
            case let .redirected(limit): "redirected(limit: \(limit))"
            case .failed: "failed"
            case let .retryDecided(decision): "retryDecided(\(decision))"
            case .backOffEnded: "backOffEnded"
            case .finish: "finish"
            }
        }
    }

    /// What an action is, with handles named by their index in `handles`.
    enum Outcome: Equatable {
        case none, start, setUp, sendPrepared, hold, resumeTransfer(Int?), suspendTransfer(Int?), cancelTransfer(Int), cancelAndFinish
        case send(paused: Bool), abandonAttempt, concludeAttempt, finishCancelledAttempt
        case followRedirect, failTooManyRedirects, retry(after: TimeInterval), beginRetry, finish
        case runHandler, keepHandlerAndResume, keepHandler
        case finished(Bool)
    }

    enum PhaseName: Equatable { case idle, preparing, prepared, running(Int), concluding, backingOff, completed }

    struct Row {
        let given: [Event]
        let event: Event
        let state: Request.State
        let phase: PhaseName
        let outcome: Outcome
        let line: UInt
    }

    private let handles = [Handle(), Handle(), Handle()]

    private func index(of handle: Handle?) -> Int? {
        handle.flatMap { handle in handles.firstIndex { $0 === handle } }
    }

    @discardableResult
    private func apply(_ event: Event, to lifecycle: inout Lifecycle) -> Outcome {
        switch event {
        case .resume: return outcome(lifecycle.resume())
        case .suspend: return outcome(lifecycle.suspend())
        case .cancel: return outcome(lifecycle.cancel())
        case .setUpEagerly: return outcome(lifecycle.setUpEagerly())
        case .attemptPrepared: return outcome(lifecycle.attemptPrepared())
        case let .handlerAdded(immediately): return outcome(lifecycle.handlerAdded(startsImmediately: immediately))
        case let .transferReady(index): return outcome(lifecycle.transferReady(handles[index]))
        case let .transferEnded(index): return outcome(lifecycle.transferEnded(handles[index]))
        case let .redirected(limit): return outcome(lifecycle.redirected(limit: limit))
        case .failed:
            lifecycle.failed(.explicitlyCancelled)
            return .none
        case let .retryDecided(decision): return outcome(lifecycle.retryDecided(decision))
        case .backOffEnded: return outcome(lifecycle.backOffEnded())
        case .finish: return .finished(lifecycle.finish(error: nil))
        }
    }

    private func outcome(_ action: Lifecycle.Action) -> Outcome {
        switch action {
        case .none: .none
        case .start: .start
        case .setUp: .setUp
        case .sendPrepared: .sendPrepared
        case .hold: .hold
        case let .resumeTransfer(handle): .resumeTransfer(index(of: handle))
        case let .suspendTransfer(handle): .suspendTransfer(index(of: handle))
        case let .cancelTransfer(handle): .cancelTransfer(index(of: handle) ?? -1)
        case .cancelAndFinish: .cancelAndFinish
        case let .send(paused): .send(paused: paused)
        case .abandonAttempt: .abandonAttempt
        case .concludeAttempt: .concludeAttempt
        case .finishCancelledAttempt: .finishCancelledAttempt
        case .followRedirect: .followRedirect
        case .failTooManyRedirects: .failTooManyRedirects
        case let .retry(delay): .retry(after: delay)
        case .beginRetry: .beginRetry
        case .finish: .finish
        case .runHandler: .runHandler
        case .keepHandlerAndResume: .keepHandlerAndResume
        case .keepHandler: .keepHandler
        }
    }

    private func phaseName(_ phase: Lifecycle.Phase) -> PhaseName {
        switch phase {
        case .idle: .idle
        case .preparing: .preparing
        case .prepared: .prepared
        case let .running(handle): .running(index(of: handle) ?? -1)
        case .concluding: .concluding
        case .backingOff: .backingOff
        case .completed: .completed
        }
    }

    private func check(_ rows: [Row], file: StaticString = #filePath) {
        for row in rows {
            var lifecycle = Lifecycle()
            for event in row.given { apply(event, to: &lifecycle) }
            let got = apply(row.event, to: &lifecycle)
            let context = "after \(row.given), \(row.event)"
            XCTAssertEqual(got, row.outcome, "action \(context)", file: file, line: row.line)
            XCTAssertEqual(lifecycle.state, row.state, "state \(context)", file: file, line: row.line)
            XCTAssertEqual(phaseName(lifecycle.phase), row.phase, "phase \(context)", file: file, line: row.line)
        }
    }

    private func row(_ given: [Event], _ event: Event, _ state: Request.State, _ phase: PhaseName, _ outcome: Outcome,
                     line: UInt = #line) -> Row {
        Row(given: given, event: event, state: state, phase: phase, outcome: outcome, line: line)
    }

    /// Reached states, named for the tables.
    private let started: [Event] = [.resume]
    private let running: [Event] = [.resume, .transferReady(0)]
    private let ended: [Event] = [.resume, .transferReady(0), .transferEnded(0)]
    private let backingOff: [Event] = [.resume, .transferReady(0), .transferEnded(0), .failed, .retryDecided(.retry(delay: 2))]
    private let finished: [Event] = [.resume, .transferReady(0), .transferEnded(0), .finish]

    func testResumeStartsOnceAndUnpausesWhatRuns() {
        check([
            row([], .resume, .resumed, .preparing, .start),
            row(started, .resume, .resumed, .preparing, .none),
            row(running, .resume, .resumed, .running(0), .none),
            row(running + [.suspend], .resume, .resumed, .running(0), .resumeTransfer(0)),
            row(started + [.suspend], .resume, .resumed, .preparing, .resumeTransfer(nil)),
            row(finished, .resume, .finished, .completed, .none),
            row([.cancel], .resume, .cancelled, .idle, .none),
        ])
    }

    func testSuspendBeforeStartWaitsForResume() {
        check([
            row([], .suspend, .suspended, .idle, .suspendTransfer(nil)),
            row([.suspend], .suspend, .suspended, .idle, .none),
            // The start is only deferred: the first resume after it starts the request.
            row([.suspend], .resume, .resumed, .preparing, .start),
            row([.suspend, .resume], .transferReady(0), .resumed, .running(0), .send(paused: false)),
        ])
    }

    /// `Session.RequestSetup.eager`: the first attempt is built and adapted at creation and
    /// held, unsent, until the first resume; a cancel before then finishes the request.
    func testAnEagerlySetUpAttemptWaitsForTheFirstResume() {
        let held: [Event] = [.setUpEagerly, .attemptPrepared]
        check([
            row([], .setUpEagerly, .initialized, .preparing, .setUp),
            row([.setUpEagerly], .setUpEagerly, .initialized, .preparing, .none),
            row([.setUpEagerly], .attemptPrepared, .initialized, .prepared, .hold),
            row([.setUpEagerly, .suspend], .attemptPrepared, .suspended, .prepared, .hold),
            row(held, .resume, .resumed, .preparing, .sendPrepared),
            row(held + [.suspend], .resume, .resumed, .preparing, .sendPrepared),
            row(held + [.resume], .attemptPrepared, .resumed, .preparing, .none),
            row(held + [.resume], .transferReady(0), .resumed, .running(0), .send(paused: false)),
            row(held + [.resume], .resume, .resumed, .preparing, .none),
            row(held, .cancel, .cancelled, .concluding, .cancelAndFinish),
            // Resumed while the set-up runs: the attempt is sent as it becomes ready.
            row([.setUpEagerly, .resume], .attemptPrepared, .resumed, .preparing, .none),
            row([.setUpEagerly, .cancel], .attemptPrepared, .cancelled, .preparing, .none),
            row([.setUpEagerly, .cancel], .transferReady(0), .cancelled, .preparing, .abandonAttempt),
            // A lazy request's attempt is prepared after its resume: it goes on.
            row(started, .attemptPrepared, .resumed, .preparing, .none),
            row(started, .setUpEagerly, .resumed, .preparing, .none),
            row([.cancel], .setUpEagerly, .cancelled, .idle, .none),
        ])
    }

    func testSuspendPausesTheRunningTransferAndTheNextOne() {
        check([
            row(running, .suspend, .suspended, .running(0), .suspendTransfer(0)),
            // Suspended while the attempt is prepared: its transfer goes to the engine paused.
            row(started + [.suspend], .transferReady(1), .suspended, .running(1), .send(paused: true)),
            row(finished, .suspend, .finished, .completed, .none),
            row(running + [.cancel], .suspend, .cancelled, .running(0), .none),
        ])
    }

    func testHandlersResumeWhatMayResumeAsAlamofireDoes() {
        check([
            row([], .handlerAdded(startsImmediately: true), .initialized, .idle, .keepHandlerAndResume),
            row([], .handlerAdded(startsImmediately: false), .initialized, .idle, .keepHandler),
            row(started, .handlerAdded(startsImmediately: true), .resumed, .preparing, .keepHandler),
            row(running + [.suspend], .handlerAdded(startsImmediately: true), .suspended, .running(0), .keepHandlerAndResume),
            row([.cancel], .handlerAdded(startsImmediately: true), .cancelled, .idle, .keepHandler),
            row(finished, .handlerAdded(startsImmediately: true), .finished, .completed, .runHandler),
            row([.cancel, .finish], .handlerAdded(startsImmediately: true), .cancelled, .completed, .runHandler),
        ])
    }

    func testCancelStopsWhatRunsOrFinishesAtOnce() {
        check([
            row([], .cancel, .cancelled, .idle, .cancelAndFinish),
            row([.suspend], .cancel, .cancelled, .idle, .cancelAndFinish),
            row(started, .cancel, .cancelled, .preparing, .cancelAndFinish),
            row(running, .cancel, .cancelled, .running(0), .cancelTransfer(0)),
            row(running + [.suspend], .cancel, .cancelled, .running(0), .cancelTransfer(0)),
            row(backingOff, .cancel, .cancelled, .backingOff, .cancelAndFinish),
            row(running + [.cancel], .cancel, .cancelled, .running(0), .none),
            row(finished, .cancel, .finished, .completed, .none),
        ])
    }

    func testCancelKeepsAnEarlierError() {
        var lifecycle = Lifecycle()
        _ = lifecycle.resume()
        _ = lifecycle.transferReady(handles[0])
        _ = lifecycle.transferEnded(handles[0])
        lifecycle.failed(.sessionTaskFailed(error: URLError(.timedOut)))
        _ = lifecycle.cancel()
        guard case .sessionTaskFailed = lifecycle.error else { return XCTFail("error: \(String(describing: lifecycle.error))") }

        var fresh = Lifecycle()
        _ = fresh.cancel()
        XCTAssertEqual(fresh.error?.isExplicitlyCancelledError, true)
    }

    func testATransferEndingAfterCancelFinishesOnceAndStaleEndsAreIgnored() {
        check([
            row(running, .transferEnded(0), .resumed, .concluding, .concludeAttempt),
            row(running + [.cancel], .transferEnded(0), .cancelled, .concluding, .finishCancelledAttempt),
            // A transfer the request no longer waits for: superseded, or ended twice.
            row(running, .transferEnded(1), .resumed, .running(0), .none),
            row(ended, .transferEnded(0), .resumed, .concluding, .none),
            row(running + [.finish], .transferEnded(0), .finished, .completed, .none),
            row(running + [.cancel, .finish], .transferEnded(0), .cancelled, .completed, .none),
        ])
    }

    func testAnAttemptPreparedAfterTheRequestEndedIsAbandoned() {
        check([
            row(started + [.cancel], .transferReady(0), .cancelled, .preparing, .abandonAttempt),
            row(started + [.finish], .transferReady(0), .finished, .completed, .abandonAttempt),
        ])
    }

    func testRedirectsAreCountedUpToTheLimitAndResetByARetry() {
        let twoHops: [Event] = ended + [.redirected(limit: 2), .transferReady(1), .transferEnded(1)]
        check([
            row(ended, .redirected(limit: 2), .resumed, .preparing, .followRedirect),
            row(twoHops, .redirected(limit: 2), .resumed, .preparing, .followRedirect),
            row(twoHops + [.redirected(limit: 2), .transferReady(2), .transferEnded(2)], .redirected(limit: 2),
                .resumed, .concluding, .failTooManyRedirects),
        ])
        var lifecycle = Lifecycle()
        for event in twoHops + [.redirected(limit: 2), .failed, .retryDecided(.retry(delay: 0)), .backOffEnded] {
            apply(event, to: &lifecycle)
        }
        XCTAssertEqual(lifecycle.redirectCount, 0)
        XCTAssertEqual(lifecycle.retryCount, 1)
        XCTAssertNil(lifecycle.error)
    }

    func testRetryDecisions() {
        let deciding: [Event] = ended + [.failed]
        check([
            row(deciding, .retryDecided(.retry(delay: 0)), .resumed, .backingOff, .retry(after: 0)),
            row(deciding, .retryDecided(.retry(delay: -1)), .resumed, .backingOff, .retry(after: 0)),
            row(deciding, .retryDecided(.retry(delay: 2)), .resumed, .backingOff, .retry(after: 2)),
            row(deciding, .retryDecided(.doNotRetry), .resumed, .concluding, .finish),
            row(deciding, .retryDecided(.doNotRetryWithError(.explicitlyCancelled)), .resumed, .concluding, .finish),
            // Cancelled while the retriers decided: the cancel finished the request.
            row(deciding + [.cancel], .retryDecided(.retry(delay: 0)), .cancelled, .concluding, .finish),
        ])
    }

    func testRetryAfterAFailedAdapterBeginsAnotherAttempt() {
        // The adapter fails before any transfer: the failure goes to the retriers.
        let adaptFailed: [Event] = started + [.failed]
        check([
            row(adaptFailed, .retryDecided(.retry(delay: 0)), .resumed, .backingOff, .retry(after: 0)),
            row(adaptFailed + [.retryDecided(.retry(delay: 0))], .backOffEnded, .resumed, .preparing, .beginRetry),
            row(adaptFailed + [.retryDecided(.retry(delay: 0)), .backOffEnded], .transferReady(0),
                .resumed, .running(0), .send(paused: false)),
        ])
    }

    func testBackOffEndsIntoARetryUnlessCancelled() {
        check([
            row(backingOff, .backOffEnded, .resumed, .preparing, .beginRetry),
            row(backingOff + [.cancel], .backOffEnded, .cancelled, .backingOff, .none),
            row(backingOff + [.cancel, .finish], .backOffEnded, .cancelled, .completed, .none),
            // Suspended during the back-off: the retry is prepared, and its transfer sent paused.
            row(backingOff + [.suspend, .backOffEnded], .transferReady(1), .suspended, .running(1), .send(paused: true)),
        ])
        var lifecycle = Lifecycle()
        for event in backingOff { apply(event, to: &lifecycle) }
        XCTAssertEqual(lifecycle.retryCount, 0, "a retry counts only once its back-off is over")
        XCTAssertNotNil(lifecycle.error)
        _ = lifecycle.backOffEnded()
        XCTAssertEqual(lifecycle.retryCount, 1)
        XCTAssertNil(lifecycle.error)
    }

    func testFinishHappensOnceAndKeepsTheFirstError() {
        check([
            row([], .finish, .finished, .completed, .finished(true)),
            row(finished, .finish, .finished, .completed, .finished(false)),
            row([.cancel], .finish, .cancelled, .completed, .finished(true)),
        ])
        var lifecycle = Lifecycle()
        lifecycle.failed(.sessionDeinitialized)
        lifecycle.failed(.explicitlyCancelled)
        XCTAssertTrue(lifecycle.finish(error: .explicitlyCancelled))
        guard case .sessionDeinitialized = lifecycle.error else { return XCTFail("error: \(String(describing: lifecycle.error))") }
        lifecycle.failedAfterSuccess(.explicitlyCancelled)
        XCTAssertEqual(lifecycle.error?.isExplicitlyCancelledError, true)
    }
}
