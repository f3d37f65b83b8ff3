// Swift 6 client code as Alamofire users write it: handlers, validators, adapters, retriers
// and monitor closures that capture a non-Sendable model. Against Alamofire this compiles,
// with warnings where its declarations are `@preconcurrency`; it must compile against Salvo
// too (checked with `-swift-version 6` by ClientLanguageModeTests).
import Foundation
import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class ScreenModel {
    var status = 0
    var bytes = 0
    var fraction = 0.0
    var log: [String] = []
    var resumeData: Data?
}

struct Item: Decodable, Sendable {
    let id: Int
}

func loadEverything(session: Session, url: URL, model: ScreenModel) {
    session.request(url)
        .validate { _, response, _ in
            model.status = response.statusCode
            return .success(())
        }
        .validate(statusCode: 200..<300)
        .validate(contentType: ["application/json"])
        .onHTTPResponse { response in model.status = response.statusCode }
        .downloadProgress { progress in model.fraction = progress.fractionCompleted }
        .uploadProgress { progress in model.fraction = progress.fractionCompleted }
        .cURLDescription { description in model.log.append(description) }
        .onURLRequestCreation { request in model.log.append(request.description) }
        .response { response in model.bytes = response.data?.count ?? 0 }
        .responseData { response in model.bytes = response.data?.count ?? 0 }
        .responseString { response in model.log.append(response.value ?? "") }
        .responseDecodable(of: [Item].self) { response in model.bytes = response.value?.count ?? 0 }

    let download = session.download(url)
        .validate(statusCode: [200])
        .responseURL { response in model.log.append(response.fileURL?.path ?? "") }
        .responseData { response in model.bytes = response.value?.count ?? 0 }
    download.cancel { data in model.resumeData = data }

    session.streamRequest(url)
        .validate(statusCode: 200..<300)
        .responseStream { stream in
            if case let .stream(.success(data)) = stream.event { model.bytes += data.count }
        }
        .responseStreamString { stream in
            if case let .stream(.success(text)) = stream.event { model.log.append(text) }
        }
}

func makeSession(model: ScreenModel) -> Session {
    let adapter = Adapter { request, _, completion in
        model.log.append("adapting")
        completion(.success(request))
    }
    let retrier = Retrier { _, _, _, completion in
        model.log.append("retrying")
        completion(.doNotRetry)
    }
    let monitor = ClosureEventMonitor()
    monitor.requestDidFinish = { request in model.log.append(request.description) }
    monitor.requestDidResume = { _ in model.status = -1 }
    let combined = Interceptor.interceptor(adapter: { request, _, completion in
        model.log.append("adapting")
        completion(.success(request))
    }, retrier: { _, _, _, completion in
        completion(.doNotRetry)
    })
    return Session(interceptor: Interceptor(adapters: [adapter], retriers: [retrier], interceptors: [combined]),
                   eventMonitors: [monitor])
}

func addPerRequestInterception(session: Session, url: URL, model: ScreenModel) {
    session.request(url)
        .adapt(using: Adapter { request, _, completion in
            model.log.append("per-request adapter")
            completion(.success(request))
        })
        .retry(using: Retrier { _, _, _, completion in completion(.doNotRetry) })
        .responseData { response in model.bytes = response.data?.count ?? 0 }
}
