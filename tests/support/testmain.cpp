#include "testmain.h"

// The main() of every test executable (agentdesk_testmain, tests/CMakeLists.txt).
int main(int argc, char **argv)
{
    return TestSupport::runRegisteredTest(argc, argv);
}
