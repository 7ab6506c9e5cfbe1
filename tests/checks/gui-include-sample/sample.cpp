// Test input for check_no_gui_includes.cmake: line 3 must be reported.
#include <QColor>
#include <QString>
