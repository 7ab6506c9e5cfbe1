#pragma once

namespace Ui {

/// Makes the C library's allocator give every block of 64 KiB or more back to the system as
/// soon as it is freed. glibc otherwise raises that bound each time it frees such a block, up
/// to 32 MiB, and keeps later ones in its heaps: a session reading 100 KB outputs turn after
/// turn then grows by memory it no longer uses, scattered between what it keeps (bench_ui
/// live: 126 -> 115 MiB at its end, the peak 127 -> 116 MiB). Process-wide; the first call
/// does it, later ones nothing; a no-op where the library is not glibc.
void returnLargeBlocksWhenFreed();

} // namespace Ui
