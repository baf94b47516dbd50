from app.models import Route, Stop
from app.routing.constants import MAX_RIDE_MINUTES
from app.routing.eta import estimate_eta, haversine_km


class CapacityError(ValueError):
    pass


class RouteOptimizer:
    """Orders the stops of a route: greedy nearest neighbour, then 2-opt."""

    def __init__(self, depot: Stop, max_passes: int = 20) -> None:
        self.depot = depot
        self.max_passes = max_passes

    def _length(self, stops: list[Stop]) -> float:
        total, here = 0.0, self.depot
        for s in stops:
            total += haversine_km(here, s)
            here = s
        return total

    def _greedy(self, stops: list[Stop]) -> list[Stop]:
        remaining = list(stops)
        ordered: list[Stop] = []
        here = self.depot
        while remaining:
            nxt = min(remaining, key=lambda s: haversine_km(here, s))
            remaining.remove(nxt)
            ordered.append(nxt)
            here = nxt
        return ordered

    def _two_opt(self, stops: list[Stop]) -> list[Stop]:
        best = stops
        for _ in range(self.max_passes):
            improved = False
            for i in range(len(best) - 1):
                for j in range(i + 2, len(best) + 1):
                    cand = best[:i] + best[i:j][::-1] + best[j:]
                    if self._length(cand) < self._length(best):
                        best, improved = cand, True
            if not improved:
                break
        return best

    def solve(self, route: Route) -> Route:
        riders = sum(s.riders for s in route.stops)
        if riders > route.capacity:
            raise CapacityError(f"{riders} riders exceed capacity {route.capacity}")
        ordered = self._two_opt(self._greedy(route.stops))
        if sum(estimate_eta(ordered)[-1:]) > MAX_RIDE_MINUTES:
            raise ValueError("route exceeds the maximum ride time")
        return route.model_copy(update={"stops": ordered})
