// The engine's own copy of Salvo's ThreadSanitizer `Mutex` (Sources/Salvo/Support/TSanMutex.swift
// says why one exists): declared in each module, it shadows `Synchronization.Mutex` there, which
// a `Mutex` imported from another module would not (the two would be ambiguous). Internal, so
// the engine's copy never meets Salvo's. Without SALVO_TSAN_LOCKS this file is empty.
#if SALVO_TSAN_LOCKS
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@usableFromInline
struct Mutex<Value>: ~Copyable {
    // Both on the heap, so their addresses never change while the struct is moved.
    @usableFromInline let lock: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    @usableFromInline
    init(_ initialValue: consuming sending Value) {
        lock = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        // Relocking from the owning thread fails loudly, as Synchronization.Mutex does,
        // instead of deadlocking.
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        let status = pthread_mutex_init(lock, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "pthread_mutex_init failed (\(status))")
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    @usableFromInline
    borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let status = pthread_mutex_lock(lock)
        precondition(status == 0, "Mutex.withLock: pthread_mutex_lock failed (\(status)), a recursive lock?")
        defer { pthread_mutex_unlock(lock) }
        return try body(&value.pointee)
    }

    @usableFromInline
    borrowing func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        guard pthread_mutex_trylock(lock) == 0 else { return nil }
        defer { pthread_mutex_unlock(lock) }
        return try body(&value.pointee)
    }
}

// `@unchecked Sendable` for any `Value`, as `Synchronization.Mutex` is: the pthread mutex
// is what makes that true. `value` is read and written only between `pthread_mutex_lock`
// (or a successful `pthread_mutex_trylock`) and `pthread_mutex_unlock`, so one thread at a
// time touches it, and `sending` in `init` and `withLock` keeps non-Sendable state from
// escaping the lock.
extension Mutex: @unchecked Sendable {} // the pthread mutex in `lock` guards `value`
#endif
