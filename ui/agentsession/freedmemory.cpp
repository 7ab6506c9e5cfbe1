#include "freedmemory.h"

#ifdef __GLIBC__
#    include <malloc.h>
#endif

namespace Ui {

void returnLargeBlocksWhenFreed()
{
#ifdef __GLIBC__
    // Setting the bound turns glibc's sliding one off. Mapping a block costs a page fault per
    // 4 KiB when it is first written: tens of microseconds for an output of 100 KB.
    [[maybe_unused]] static const int set = mallopt(M_MMAP_THRESHOLD, 64 * 1024);
#endif
}

} // namespace Ui
