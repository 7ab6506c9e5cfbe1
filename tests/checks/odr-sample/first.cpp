// A helper type defined at namespace scope, as check_test_odr.cmake's sample: second.cpp
// defines another type under the same name.
struct Helper
{
    virtual ~Helper() = default;
    virtual int value() const { return 1; }
};

Helper *firstHelper()
{
    return new Helper;
}
