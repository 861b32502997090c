#ifndef IAPLENS_CURL_SHIM_H
#define IAPLENS_CURL_SHIM_H
// libcurl (Debian's libcurl4-openssl-dev), through which fetch and consumption talk HTTPS to Apple
// (IAPFetch's HTTPTransport). curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these
// helpers give each argument type its own function.
#include <curl/curl.h>

static inline CURLcode iaplens_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode iaplens_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode iaplens_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode iaplens_curl_set_size(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*iaplens_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode iaplens_curl_set_data_callback(CURL *handle, CURLoption option, iaplens_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}
typedef int (*iaplens_curl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
static inline CURLcode iaplens_curl_set_progress_callback(CURL *handle, iaplens_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline long iaplens_curl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}
#endif
