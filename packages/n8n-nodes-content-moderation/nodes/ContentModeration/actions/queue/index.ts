import type { Operation } from '../operation';
import { defineResource } from '../resource';
import * as addItem from './addItem.operation';
import * as getItem from './getItem.operation';

const list: Operation[] = [addItem, getItem];

export const { operations, description } = defineResource('queue', list, { default: 'addItem' });
