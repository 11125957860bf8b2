import type { Operation } from '../operation';
import { defineResource } from '../resource';
import * as receive from './receive.operation';

const list: Operation[] = [receive];

export const { operations, description } = defineResource('callback', list, { default: 'receive' });
