// Shapes and their areas.
#include <vector>
#include "shape.hpp"

namespace geo {

class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
};

class Circle : public Shape, private Named {
public:
    explicit Circle(double r) : r_(r) {}
    double area() const override { return compute(r_); }
private:
    double r_;
};

struct Point { double x, y; };

double Circle::scaled(double k) const {
    return this->area() * k;
}

}  // namespace geo

int main() {
    geo::Circle c(2.0);
    std::vector<geo::Point> pts;
    pts.push_back(geo::Point{1, 2});
    return static_cast<int>(c.area());
}
