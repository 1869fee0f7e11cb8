import numpy as np

products = ["bolts", "nuts", "washers", "screws"]
stock = np.array([500, 800, 1200, 300])
reorder_level = np.array([200, 300, 400, 150])
unit_cost = np.array([0.12, 0.05, 0.02, 0.15])
# daily demand for 10 days (rows) per product (cols)
demand = np.array([
    [40, 60, 100, 25], [55, 70, 90, 30], [35, 80, 120, 20], [60, 65, 110, 35], [45, 75, 95, 40],
    [50, 90, 130, 30], [70, 85, 105, 25], [30, 60, 90, 45], [65, 95, 125, 30], [40, 70, 100, 20],
])
orders = []
level = stock.copy()
history = np.zeros_like(demand)
for day, dem in enumerate(demand):
    level = level - np.minimum(dem, level)
    need = level < reorder_level
    if need.any():
        qty = np.where(need, stock - level, 0)
        orders.append((day, {products[i]: int(q) for i, q in enumerate(qty) if q}))
        level = level + qty
    history[day] = level
print(history)
for day, o in orders:
    print(f"day {day}: order {o}")
total_cost = sum(sum(unit_cost[products.index(p)] * q for p, q in o.items()) for _, o in orders)
print(f"total reorder cost: {total_cost:.2f}")
print("avg daily demand", demand.mean(axis=0))
print("days of cover", np.round(stock / demand.mean(axis=0), 2))
print("stock value", np.round(history[-1] @ unit_cost, 2))
