// The translation unit that builds a precompiled header (see CMakeLists.txt).
