/*
 * A stand-in for Windows' bcryptprimitives.dll under Wine 8, which has
 * none. Rust's standard library (1.78 and later) takes its random bytes
 * (HashMap seeds) from bcryptprimitives!ProcessPrng; without this DLL
 * every Rust program built for Windows stops at start-up under Wine 8.
 *
 * ProcessPrng is served by RtlGenRandom (advapi32!SystemFunction036),
 * which Wine implements. Only for running nvcmp's Windows build under
 * Wine in CI (.ci/wine/setup); real Windows has its own DLL.
 *
 * Build: x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll \
 *            bcryptprimitives.c bcryptprimitives.def -ladvapi32
 */
#include <windows.h>

/* RtlGenRandom: exported by advapi32 under this name. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* Always returns TRUE on Windows; here FALSE when RtlGenRandom fails,
 * which Rust's std turns into a panic with a message, not garbage. */
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        /* RtlGenRandom takes a ULONG length: feed it at most 1 GiB a call. */
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
