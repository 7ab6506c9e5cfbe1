// check_test_odr.cmake's sample: a type of the same name as first.cpp's, with other members.
struct Helper
{
    virtual ~Helper() = default;
    virtual int value() const { return 2; }
};

Helper *secondHelper()
{
    return new Helper;
}
