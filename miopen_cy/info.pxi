# miopen_cy extensions that describe the build and the machine (show_config, `miopen-driver info`).


def cyGetConfig():
    """How the library was built and what it finds on this machine: {key: value} parsed from
    the C call's "key=value" lines (keys in miopen.h).  C: miopenCyGetConfig"""
    cdef const char* text = NULL
    check_status(miopenCyGetConfig(&text))
    out = {}
    for line in text.decode("utf-8", "replace").splitlines():
        key, sep, value = line.partition("=")
        if sep:
            out[key] = value
    return out


def cyGetDbPaths(Handle handle):
    """(findDb, perfDb): the find-db and perf-db files of the handle's device ("" without a
    user-db directory).  C: miopenCyGetDbPaths"""
    cdef const char* find_db = NULL
    cdef const char* perf_db = NULL
    check_status(miopenCyGetDbPaths(c_handle(handle), &find_db, &perf_db))
    return (find_db.decode("utf-8", "replace"), perf_db.decode("utf-8", "replace"))
