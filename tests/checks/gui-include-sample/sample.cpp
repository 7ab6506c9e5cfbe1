// Test input for check_no_gui_includes.cmake: the include of QColor must be reported.

#include <QColor>
#include <QString>
