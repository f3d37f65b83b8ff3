import Dispatch
import Synchronization

/// Each measured request's time, from the moment the client issues it to the moment its
/// completion is seen, in nanoseconds of the monotonic clock (`DispatchTime`,
/// `CLOCK_MONOTONIC` on Linux, the C driver's clock too).
///
/// The buffer is allocated and touched before the requests, so recording allocates nothing;
/// each completion takes the next slot with one relaxed atomic add, which no lock or other
/// thread holds up. The times are read once the run has returned.
final class RequestTimes: @unchecked Sendable {  // each slot is written by one thread, read after the run
    /// When a request was issued: handed to the code that issues it and back at its completion.
    struct Start: Sendable {
        fileprivate let nanoseconds: UInt64
    }

    let capacity: Int
    private let slots: UnsafeMutablePointer<UInt64>
    private let recorded = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: max(capacity, 1))
        // Writing every page now keeps page faults out of the measured requests.
        slots.initialize(repeating: 0, count: max(capacity, 1))
    }

    deinit {
        slots.deallocate()
    }

    static func now() -> Start {
        Start(nanoseconds: DispatchTime.now().uptimeNanoseconds)
    }

    /// Records the request issued at `start` as completed now.
    func record(_ start: Start) {
        let end = DispatchTime.now().uptimeNanoseconds
        let index = recorded.wrappingAdd(1, ordering: .relaxed).oldValue
        if index < capacity { slots[index] = end - start.nanoseconds }
    }

    /// Lets C code (the libcurl driver) write `count` times into the buffer.
    func fill<Result>(count: Int, _ body: (UnsafeMutablePointer<UInt64>) throws -> Result) rethrows -> Result {
        precondition(count <= capacity, "\(count) times for \(capacity) slots")
        let result = try body(slots)
        recorded.store(count, ordering: .relaxed)
        return result
    }

    /// The times recorded, in completion order.
    var nanoseconds: [UInt64] {
        Array(UnsafeBufferPointer(start: slots, count: min(recorded.load(ordering: .relaxed), capacity)))
    }
}
